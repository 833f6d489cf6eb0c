// What a step does to one resource, and the symbol a person sees for it.

export const actions = ['create', 'update', 'replace', 'delete', 'noop', 'forget'] as const;
export type Action = (typeof actions)[number];

export const actionSymbols: Readonly<Record<Action, string>> = Object.freeze({
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  noop: ' ',
  forget: '.',
});

/** True when the action removes or recreates the remote object. */
export function isDestructive(action: Action): boolean {
  return action === 'delete' || action === 'replace';
}
