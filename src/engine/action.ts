// What a step does to one resource, and the symbol a person sees for it: the one table of symbols
// render, Markdown and Mermaid draw from.

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

/** A replacement that creates its new object first: Terraform's `+/-` (create_before_destroy). */
export const CREATE_FIRST_SYMBOL = '+/-';

/** A lookup read during apply (deferred): Terraform's `<= read (data resources)`. */
export const READ_SYMBOL = '<=';

/**
 * The symbol of a step: its action's, `+/-` for a replacement that creates first. In a 'label'
 * (a Markdown summary, a graph node) a no-op, blank in the diff, is `=`.
 */
export function actionSymbol(action: Action, createFirst = false, where: 'diff' | 'label' = 'diff'): string {
  if (action === 'replace' && createFirst) return CREATE_FIRST_SYMBOL;
  return where === 'label' && action === 'noop' ? '=' : actionSymbols[action];
}
