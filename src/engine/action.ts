// What a step does to one resource, and the symbol a person sees for it.

/** What a step does to one resource, and how a rendered plan shows it: `+` create, `~` update, `-/+` replace, `-` delete, blank noop, `.` forget. */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'noop' | 'forget';

export const actionSymbols: Readonly<Record<Action, string>> = Object.freeze({
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  noop: ' ',
  forget: '.',
});
