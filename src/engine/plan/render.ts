// The human diff: Terraform's symbols (+ ~ -/+ -), "# forces replacement", "(known after apply)",
// "(sensitive value)", an explanation per step, and the summary line. The only place that writes
// the words for unknown and sensitive values.
import type { Plan } from './plan.js';
import type { Step } from './step.js';
import { actionSymbols } from './action.js';
import { isUnknown } from '../values/unknown.js';
import { isSensitive } from '../values/secret.js';

export type RenderOptions = { readonly color?: boolean; readonly showNoop?: boolean; readonly width?: number };

const COLORS = { '+': '\x1b[32m', '~': '\x1b[33m', '-/+': '\x1b[35m', '-': '\x1b[31m', '.': '\x1b[36m', ' ': '' } as Record<string, string>;
const RESET = '\x1b[0m';

const HEADLINE: Record<Step['cause'], string> = {
  new: 'will be created',
  gone: 'was deleted outside converge and will be created again',
  changed: 'will be updated in place',
  replace_forced: 'must be replaced',
  type_changed: 'must be replaced (its type changed)',
  removed: 'will be destroyed',
  retained: 'will be forgotten',
  deposed: 'will be destroyed',
  moved: 'has moved',
  unchanged: 'is unchanged',
};

const NOTE: Partial<Record<Step['cause'], string>> = {
  removed: '(removed from the stack)',
  retained: '(forgotten, retainOnDelete: the object is kept)',
  deposed: '(left behind by an interrupted replacement)',
};

/** One value as a person reads it. */
export function formatValue(v: unknown, indent = ''): string {
  if (isUnknown(v)) return '(known after apply)';
  if (isSensitive(v)) return '(sensitive value)';
  if (v === undefined) return 'null';
  if (typeof v === 'string') {
    if (v.includes('\n')) return `<<-EOT\n${v.replace(/\n$/, '').split('\n').map((l) => `${indent}    ${l}`).join('\n')}\n${indent}  EOT`;
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => `${indent}    ${formatValue(x, `${indent}    `)},`).join('\n')}\n${indent}  ]`;
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${indent}    ${k} = ${formatValue(x, `${indent}    `)}`).join('\n')}\n${indent}  }`;
  }
  return String(v);
}

function paint(text: string, symbol: string, color: boolean): string {
  return color && COLORS[symbol] ? `${COLORS[symbol]}${text}${RESET}` : text;
}

function renderStep(step: Step, color: boolean): string[] {
  const sym = actionSymbols[step.action];
  const lines: string[] = [];
  const moved = step.movedFrom ? ` (moved from ${step.movedFrom})` : '';
  lines.push(`  # ${step.address} ${HEADLINE[step.cause]}${moved}`);
  if (NOTE[step.cause]) lines.push(`  # ${NOTE[step.cause]}`);
  if (step.action === 'replace' && step.createBeforeDestroy) lines.push('  # (create before destroy)');
  const head = `${sym.padStart(3)} resource "${step.type}" "${step.address}" {`;
  lines.push(paint(head, sym, color));
  const attrs: string[] = [];
  if (step.action === 'create') {
    for (const [k, v] of Object.entries(step.after ?? {})) if (v !== undefined) attrs.push(paint(`      + ${k} = ${formatValue(v, '      ')}`, '+', color));
  } else if (step.action === 'delete' || step.action === 'forget') {
    if (step.id) attrs.push(`        id = ${JSON.stringify(step.id)}`);
    for (const [k, v] of Object.entries(step.before ?? {})) if (v !== undefined) attrs.push(paint(`      ${step.action === 'delete' ? '-' : ' '} ${k} = ${formatValue(v, '      ')}`, step.action === 'delete' ? '-' : ' ', color));
  } else {
    if (step.id) attrs.push(`        id = ${JSON.stringify(step.id)}`);
    for (const c of step.changes) {
      const s = c.before === undefined ? '+' : c.after === undefined ? '-' : '~';
      const value = c.before === undefined ? formatValue(c.after, '      ')
        : c.after === undefined ? `${formatValue(c.before, '      ')} -> null`
        : `${formatValue(c.before, '      ')} -> ${formatValue(c.after, '      ')}`;
      attrs.push(paint(`      ${s} ${c.path} = ${value}${c.forcesReplacement ? ' # forces replacement' : ''}`, s, color));
    }
  }
  lines.push(...attrs, '    }');
  return lines;
}

export function summaryLine(plan: Pick<Plan, 'summary'>): string {
  const s = plan.summary;
  return `Plan: ${s.create} to add, ${s.update} to change, ${s.replace} to replace, ${s.delete} to destroy${s.forget ? `, ${s.forget} to forget` : ''}.`;
}

export function renderPlan(plan: Plan, options: RenderOptions = {}): string {
  const color = options.color ?? (typeof process !== 'undefined' && process.stdout?.isTTY === true);
  const shown = plan.steps.filter((s) => options.showNoop || s.action !== 'noop' || s.movedFrom);
  const out: string[] = [];
  if (!plan.hasChanges) {
    out.push('No changes. Your infrastructure matches the configuration.');
  } else {
    out.push('converge will perform the following actions:', '');
    for (const step of shown) out.push(...renderStep(step, color), '');
    out.push(summaryLine(plan));
  }
  if (plan.warnings.length) {
    out.push('', 'Warnings:');
    for (const w of plan.warnings) out.push(`  - ${w}`);
  }
  return out.join('\n');
}
