// What a step does to one resource, and the symbol a person sees for it.

export type Action = 'create' | 'update' | 'replace' | 'delete' | 'noop' | 'forget';

export const actionSymbols: Readonly<Record<Action, string>> = Object.freeze({
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  noop: ' ',
  forget: '.',
});
