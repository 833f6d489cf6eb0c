// The human diff, read like Terraform's: symbols (+ ~ -/+ +/- - .), a headline and an explanation
// per step, nested maps and lists diffed element by element, "# forces replacement" on the exact
// attribute, "(known after apply)", "(sensitive value)", and the summary line. The only place that
// writes the words for unknown and sensitive values; colours only on a TTY.
import type { PlanView } from './view.js';
import { stepSymbol, type Step } from './step.js';
import type { DriftEntry } from './drift.js';
import { actionSymbols, CREATE_FIRST_SYMBOL, READ_SYMBOL } from '../action.js';
import { instanceLabel } from '../provider/instance.js';
import { parsePath, type PathSegment } from '../values/path.js';
import {
  diffNode,
  keyText,
  prefixesOf,
  scalarText,
  showValue,
  type DiffInput,
  type Sym,
  type ValueStyle,
} from './render-value.js';
import { outputSection } from './render-outputs.js';
import { policyLines } from './render-policy.js';

/** Options of `plan.render()`. */
export type RenderOptions = {
  /** ANSI colours; default: on when stdout is a TTY. */
  readonly color?: boolean;
  /** Show unchanged resources too. */
  readonly showNoop?: boolean;
  /** Single-line strings longer than this many characters are folded; default 120. */
  readonly width?: number;
  /** Multi-line strings with more lines than this are folded; default 24. */
  readonly maxLines?: number;
};

const COLORS: Record<string, string> = {
  [actionSymbols.create]: '\x1b[32m',
  [actionSymbols.update]: '\x1b[33m',
  [actionSymbols.replace]: '\x1b[35m',
  [CREATE_FIRST_SYMBOL]: '\x1b[35m',
  [actionSymbols.delete]: '\x1b[31m',
  [actionSymbols.forget]: '\x1b[36m',
  [READ_SYMBOL]: '\x1b[36m',
};
const RESET = '\x1b[0m';
const BOLD = '\x1b[1m';

const HEADLINE: Record<Step['cause'], string> = {
  new: 'will be created',
  gone: 'was deleted outside converge and will be created again',
  changed: 'will be updated in place',
  options_changed: 'will be updated in the state only (options or dependencies; no provider call)',
  replace_requested: 'will be replaced, as requested',
  drift: 'changed outside converge and will be updated back in place',
  replace_forced: 'must be replaced',
  type_changed: 'must be replaced',
  provider_changed: 'must be replaced',
  removed: 'will be destroyed',
  retained: 'will be forgotten',
  deposed: 'will be destroyed',
  tainted: 'is tainted, so must be replaced',
  moved: 'has moved',
  unchanged: 'is unchanged',
};

const NOTE: Partial<Record<Step['cause'], string>> = {
  removed: '(removed from the stack)',
  retained: '(forgotten, retainOnDelete)',
  deposed: '(left behind by an interrupted replacement)',
  type_changed: '(its type changed)',
  replace_requested: '(replace requested)',
};

/** The '# …' lines above a step's block. */
export function stepHeadline(step: Step): string[] {
  return headline(step);
}

function headline(step: Step): string[] {
  if (step.movedFrom && step.action === 'noop') return [`# ${step.movedFrom} has moved to ${step.address}`];
  const moved = step.movedFrom ? ` (moved from ${step.movedFrom})` : '';
  const who = step.deposedKey ? `${step.address} (deposed object ${step.deposedKey})` : step.address;
  if (step.action === 'forget' && step.cause === 'gone') {
    return [`# ${who} was deleted outside converge`, '# (forgotten: it is no longer in the stack)'];
  }
  // A named provider instance is said once, in the headline (the default one goes unsaid).
  const through =
    step.instance !== undefined && !step.providerChange
      ? [`# (through provider instance ${instanceLabel(step.provider, step.instance)})`]
      : [];
  if (step.lookup?.deferred) return [`# ${who} will be read during apply`, `# (${step.lookup.deferred})`, ...through];
  if (step.lookup && step.action === 'forget')
    return [`# ${who} (a lookup) is no longer declared`, '# (its recorded answer is dropped; nothing is deleted)'];
  const lines = [`# ${who} ${HEADLINE[step.cause]}${moved}`];
  if (NOTE[step.cause]) lines.push(`# ${NOTE[step.cause]}`);
  lines.push(...through);
  if (step.providerChange)
    lines.push(`# (provider instance changed from ${step.providerChange.from} to ${step.providerChange.to})`);
  if (step.action === 'replace') {
    lines.push(
      step.createBeforeDestroy
        ? `# (create before destroy${step.createBeforeDestroyPropagated ? ', because a resource that depends on it is replaced create-first' : ''})`
        : '# (destroy, then create)',
    );
    if (step.retainOld) lines.push('# (the old object is forgotten, not deleted: retainOnDelete)');
  }
  return lines;
}

/** Option and dependency changes: recorded in the state, never sent to the provider. */
function stateLines(step: Step, style: ValueStyle): string[] {
  return step.changes
    .filter((c) => c.scope === 'state')
    .map(
      (c) =>
        `      ${style.sym('~')} ${c.path} = ${JSON.stringify(c.before ?? null)} -> ${JSON.stringify(c.after ?? null)} # state only`,
    );
}

/** The attribute lines of one step, inside its resource block. */
function attributes(step: Step, style: ValueStyle): string[] {
  const indent = '      ';
  const lines: string[] = [];
  const idLine = (sym: Sym, tail: string) => `${indent}${style.sym(sym)} id = ${JSON.stringify(step.id)}${tail}`;
  const whole = (values: Readonly<Record<string, unknown>> | undefined, sym: Sym, tail: string, withId: boolean) => {
    const entries = Object.entries(values ?? {}).filter(([, v]) => v !== undefined);
    if (withId && step.id) lines.push(idLine(sym, tail));
    for (const [k, v] of entries) {
      const s = showValue(v, sym, indent, style);
      const first = `${indent}${style.sym(sym)} ${keyText(k)} = ${s.head}`;
      if (s.rest.length === 0) lines.push(first + tail);
      else lines.push(first, ...s.rest.slice(0, -1), s.rest[s.rest.length - 1] + tail);
    }
  };
  if (step.action === 'create') {
    whole(step.after, '+', '', false);
    return lines;
  }
  if (step.action === 'delete') {
    whole(step.before, '-', ' -> null', true);
    return lines;
  }
  if (step.action === 'forget') {
    if (step.id) lines.push(`${indent}  id = ${JSON.stringify(step.id)}`);
    const n = Object.values(step.before ?? {}).filter((v) => v !== undefined).length;
    if (n) lines.push(`${indent}  # (${n} attribute${n === 1 ? '' : 's'} kept as they are)`);
    return lines;
  }
  const inputChanges = step.changes.filter((c) => c.scope !== 'state');
  const changes = new Map(inputChanges.map((c) => [c.path, c]));
  const d: DiffInput = {
    ...style,
    changes,
    above: prefixesOf(inputChanges.map((c) => parsePath(c.path) as PathSegment[])),
  };
  const before = step.before ?? {};
  const after = step.after ?? {};
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter(
    (k) => before[k] !== undefined || after[k] !== undefined,
  );
  if (step.id) lines.push(step.action === 'replace' ? idLine('~', ' -> (known after apply)') : idLine(' ', ''));
  let hidden = 0;
  for (const k of keys) {
    const sub = diffNode(k, [k], before[k], after[k], indent, d);
    if (sub) lines.push(...sub);
    else hidden++;
  }
  lines.push(...stateLines(step, style));
  if (hidden) lines.push('', `${indent}  # (${hidden} unchanged attribute${hidden === 1 ? '' : 's'} hidden)`);
  return lines;
}

function renderStep(step: Step, style: ValueStyle, color: boolean): string[] {
  // A lookup read during apply is a data source's `<= read`, as Terraform shows it.
  const sym = stepSymbol(step);
  const kind = step.lookup ? 'lookup' : 'resource';
  const head = `${sym.padStart(3)} ${kind} "${step.type}" "${step.address}" {`;
  const painted =
    color && COLORS[sym] ? `${COLORS[sym]}${sym.padStart(3)}${RESET} ${kind} "${step.type}" "${step.address}" {` : head;
  const lines = headline(step).map((l) => (color ? `  ${BOLD}${l}${RESET}` : `  ${l}`));
  lines.push(painted, ...attributes(step, style), '    }');
  return lines;
}

/**
 * "Plan: 3 to add, 1 to change, 1 to replace, 0 to destroy." (", 1 to read" when lookups are read
 * during apply, not counted as adds; ", 1 to forget" when there is one; "; 2 to change in the state
 * only" when options, dependencies or names change with no input).
 */
export function summaryLine(plan: Pick<PlanView, 'summary'>): string {
  const s = plan.summary;
  // `read` is absent from the summary of a plan file written before reads were counted apart.
  const read = s.read ? `, ${s.read} to read` : '';
  const forget = `${read}${s.forget ? `, ${s.forget} to forget` : ''}`;
  const stateOnly = s.stateOnly ? `; ${s.stateOnly} to change in the state only` : '';
  return `Plan: ${s.create} to add, ${s.update} to change, ${s.replace} to replace, ${s.delete} to destroy${forget}${stateOnly}.`;
}

/** One step's block as plain text (no colours), as render() prints it. */
export function renderStepText(step: Step, options: Pick<RenderOptions, 'width' | 'maxLines'> = {}): string {
  const style: ValueStyle = { width: options.width ?? 120, maxLines: options.maxLines ?? 24, sym: (s) => s };
  return renderStep(step, style, false).join('\n');
}

/** One drifted object as lines: "~ resource ... {", each changed input recorded -> found, "}". */
export function driftLines(d: DriftEntry, width = 120): string[] {
  if (d.action === 'delete')
    return [
      `  # ${d.address} was deleted outside converge`,
      `  - resource "${d.type}" "${d.address}" {`,
      `      - id = ${JSON.stringify(d.id)}`,
      '    }',
    ];
  const lines = [
    `  # ${d.address} has changed outside converge`,
    `  ~ resource "${d.type}" "${d.address}" {`,
    `        id = ${JSON.stringify(d.id)}`,
  ];
  for (const c of d.changes)
    lines.push(
      `      ~ ${c.path} = ${c.before === undefined ? 'null' : scalarText(c.before, width)} -> ${c.after === undefined ? 'null' : scalarText(c.after, width)}`,
    );
  lines.push('    }');
  return lines;
}

/** The "Objects changed outside converge" section (Terraform's words), or nothing without drift. */
function driftSection(plan: Pick<PlanView, 'drift' | 'mode'>, width = 120): string[] {
  const drift = plan.drift ?? [];
  if (drift.length === 0) return [];
  const out = [
    'Objects changed outside converge:',
    '',
    'converge found these differences between its state and the real objects while refreshing:',
    '',
  ];
  for (const d of drift) out.push(...driftLines(d, width), '');
  out.push(
    plan.mode === 'refresh-only'
      ? 'This is a refresh-only plan: converge will not undo these changes. Applying it records them in the state without changing any object.'
      : 'Unless the stack declares these values, the actions below put the objects back as declared.',
    '',
  );
  return out;
}

export function renderPlan(plan: PlanView, options: RenderOptions = {}): string {
  const color = options.color ?? (typeof process !== 'undefined' && process.stdout?.isTTY === true);
  const style: ValueStyle = {
    width: options.width ?? 120,
    maxLines: options.maxLines ?? 24,
    sym: (s) => (color && COLORS[s] ? `${COLORS[s]}${s}${RESET}` : s),
  };
  const shown = plan.steps.filter((s) => options.showNoop || s.action !== 'noop' || s.movedFrom);
  const out: string[] = [...driftSection(plan, style.width)];
  if (plan.mode === 'refresh-only') {
    if (!plan.drift?.length) out.push('No changes. Every object matches the state.');
    else
      out.push(
        `Refresh only: ${plan.drift.length} object${plan.drift.length === 1 ? '' : 's'} to record in the state, none to change.`,
      );
  } else if (!plan.hasChanges) {
    out.push('No changes. Your infrastructure matches the configuration.');
    if (options.showNoop) for (const step of shown) out.push('', ...renderStep(step, style, color));
  } else {
    // Outputs alone: Terraform's "Changes to Outputs" and no resource section.
    const outputs = outputSection(plan.outputChanges, style);
    const resources = plan.steps.some((s) => s.action !== 'noop' || s.movedFrom !== undefined);
    if (resources || !outputs.length) {
      out.push('converge will perform the following actions:', '');
      for (const step of shown) out.push(...renderStep(step, style, color), '');
      out.push(summaryLine(plan));
    }
    if (outputs.length) out.push(...(resources ? [''] : []), ...outputs);
    if (outputs.length && !resources)
      out.push(
        '',
        'You can apply this plan to save these new output values to the state, without changing any real infrastructure.',
      );
  }
  const policy = policyLines(plan);
  if (policy.length) out.push('', ...policy);
  if (plan.warnings.length) {
    out.push('', 'Warnings:');
    for (const w of plan.warnings) out.push(`  - ${w}`);
  }
  return out.join('\n');
}
