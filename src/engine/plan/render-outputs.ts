// The "Changes to Outputs" section of a plan, in Terraform's words and layout: one line per output
// that changes (+ added, ~ changed, - removed), names aligned, `(known after apply)` for what
// apply decides and `(sensitive value)` for a secret output. Render and Markdown both print it.
import type { OutputChange } from './outputs.js';
import { showValue, type Sym, type ValueStyle } from './render-value.js';
import { isSensitive } from '../values/secret.js';

const SYMBOL: Record<OutputChange['action'], Sym> = { create: '+', update: '~', delete: '-', noop: ' ' };

/** The section's lines (without its heading), or none when no output changes. */
export function outputLines(changes: readonly OutputChange[] | undefined, style: ValueStyle): string[] {
  const shown = (changes ?? []).filter((c) => c.action !== 'noop');
  if (shown.length === 0) return [];
  const width = Math.max(...shown.map((c) => c.name.length));
  const lines: string[] = [];
  for (const c of shown) {
    const sym = SYMBOL[c.action];
    const head = `  ${style.sym(sym)} ${c.name.padEnd(width)} = `;
    if (c.action === 'create') lines.push(...joined(head, showValue(c.after, '+', '  ', style)));
    else if (c.action === 'delete') lines.push(...joined(head, showValue(c.before, '-', '  ', style), ' -> null'));
    else if (isSensitive(c.before) && isSensitive(c.after)) lines.push(`${head}(sensitive value)`);
    else {
      const before = showValue(c.before, '-', '  ', style);
      const after = showValue(c.after, '+', '  ', style);
      if (before.rest.length === 0) lines.push(...joined(`${head}${before.head} -> `, after));
      else lines.push(...joined(head, before), ...joined('      -> ', after));
    }
  }
  return lines;
}

/** The section as Terraform prints it, heading included; empty when no output changes. */
export function outputSection(changes: readonly OutputChange[] | undefined, style: ValueStyle): string[] {
  const lines = outputLines(changes, style);
  return lines.length ? ['Changes to Outputs:', ...lines] : [];
}

function joined(prefix: string, s: { head: string; rest: string[] }, suffix = ''): string[] {
  if (s.rest.length === 0) return [`${prefix}${s.head}${suffix}`];
  return [`${prefix}${s.head}`, ...s.rest.slice(0, -1), `${s.rest[s.rest.length - 1]}${suffix}`];
}
