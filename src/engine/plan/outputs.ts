// The stack's outputs in a plan (Terraform's "Changes to Outputs"). `plan(decls, { outputs })`
// declares them as values that may hold references (`web.out('publicIp')`), secret() values and
// references to other stacks' outputs (resolved before planning, stack-ref.ts). The plan shows
// each output's change with what is known at plan time (an output of a resource to be created is
// unknown) and secrets as the sensitive marker; it carries the declared values as its output
// work, which apply resolves against the state the steps leave and records in one change. A
// secret output is secret as a whole: a secret() anywhere in it, or a reference to a secret path.
import { collectRefs, isRef } from '../decl/ref.js';
import { recordSource, resolveFrom, type RecordSource } from '../decl/resolve.js';
import type { Issue } from '../issue.js';
import type { ResourceState, StackOutput } from '../../state/model.js';
import { own } from '../../state/keys.js';
import { containsUnknown } from '../values/unknown.js';
import { isSensitive, sensitive } from '../values/secret.js';
import { canonical } from './plan-integrity.js';

/** What happens to one stack output: added, changed, removed, or nothing. */
export type OutputAction = 'create' | 'update' | 'delete' | 'noop';

/** One stack output's change in a plan; values as people may read them (secrets `(sensitive value)`, unknowns `(known after apply)`). */
export type OutputChange = {
  /** The output's name. */
  readonly name: string;
  /** `create` (new), `update` (its value changes or becomes unknown), `delete` (no longer declared), `noop`. */
  readonly action: OutputAction;
  /** The recorded value (undefined: none); the sensitive marker when it was secret. */
  readonly before: unknown;
  /** The value it will have (undefined: removed); the unknown marker while not known; the sensitive marker when secret. */
  readonly after: unknown;
  /** True when the output is (or was) secret. */
  readonly secret: boolean;
};

/** What apply needs to record the outputs: the declared values (references and secret() inside), or a destroy's none. */
export type OutputWork = {
  /** The declared outputs, stack references already resolved. */
  readonly declared: Readonly<Record<string, unknown>>;
};

/** The `outputs` plan option's own problems: not an object, an empty name, a reference to an undeclared resource. */
export function outputIssues(outputs: unknown, declared: ReadonlySet<string>): Issue[] {
  if (outputs === undefined) return [];
  const issue = (path: (string | number)[], code: Issue['code'], message: string): Issue => ({
    resource: '',
    field: 'plan',
    path: ['outputs', ...path],
    code,
    message,
  });
  if (outputs === null || typeof outputs !== 'object' || Array.isArray(outputs))
    return [issue([], 'invalid_type', 'outputs must be an object of output names to values')];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(outputs)) {
    if (value === undefined) issues.push(issue([name], 'invalid_type', `output '${name}' has no value`));
    for (const { ref, at } of collectRefs(value))
      if (!declared.has(ref.resource))
        issues.push(
          issue(
            [name, ...at],
            'missing_reference',
            `output '${name}' refers to '${ref.resource}', which is not declared in this stack`,
          ),
        );
  }
  return issues;
}

/**
 * The plan's output changes: each declared output resolved against `source` (the planner's meaning
 * of a reference at plan time: unknown for what apply makes) against the recorded outputs, and
 * each recorded output no longer declared removed. A destroy declares none.
 */
export function planOutputs(
  declared: Readonly<Record<string, unknown>>,
  recorded: Readonly<Record<string, StackOutput>>,
  source: RecordSource,
): OutputChange[] {
  const changes: OutputChange[] = [];
  for (const name of Object.keys(declared)) {
    const r = resolveFrom(declared[name], source);
    const prior = own(recorded, name);
    const secret = r.secrets.length > 0;
    const before = prior ? (prior.secret ? sensitive : prior.value) : undefined;
    // A secret output shows '(sensitive value)' even while unknown, as Terraform's does.
    const after = secret ? sensitive : r.value;
    let action: OutputAction;
    if (!prior) action = 'create';
    else if (containsUnknown(r.value)) action = 'update';
    else action = prior.secret === secret && canonical(prior.value) === canonical(r.value) ? 'noop' : 'update';
    changes.push({ name, action, before, after, secret: secret || (prior?.secret ?? false) });
  }
  for (const name of Object.keys(recorded))
    if (!Object.hasOwn(declared, name)) {
      const prior = recorded[name]!;
      changes.push({
        name,
        action: 'delete',
        before: prior.secret ? sensitive : prior.value,
        after: undefined,
        secret: prior.secret,
      });
    }
  return changes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * What apply records: each declared output resolved against the state the steps left (`get`), and
 * the recorded outputs no longer declared. An output that refers to a resource not in that state
 * (its create failed) keeps its recorded value and is named in `unresolved`.
 */
export function outputsToRecord(
  work: OutputWork,
  recorded: Readonly<Record<string, StackOutput>>,
  get: (name: string) => ResourceState | undefined,
): { readonly set: StackOutput[]; readonly remove: string[]; readonly unresolved: string[] } {
  const set: StackOutput[] = [];
  const unresolved: string[] = [];
  const source = recordSource(get, () => undefined); // a missing record is set apart below, before resolving
  for (const name of Object.keys(work.declared)) {
    const expr = work.declared[name];
    const missing = collectRefs(expr).some(({ ref }) => !get(ref.resource));
    if (missing) {
      unresolved.push(name);
      continue;
    }
    const r = resolveFrom(expr, source);
    const value = JSON.parse(JSON.stringify(r.value ?? null)) as unknown;
    const output: StackOutput = { name, value, secret: r.secrets.length > 0 };
    const prior = own(recorded, name);
    if (!prior || prior.secret !== output.secret || canonical(prior.value) !== canonical(value)) set.push(output);
  }
  const remove = Object.keys(recorded).filter((n) => !Object.hasOwn(work.declared, n));
  return { set, remove, unresolved };
}

/** True when any output changes (or may change: an unknown). */
export function outputsChange(changes: readonly OutputChange[]): boolean {
  return changes.some((c) => c.action !== 'noop');
}

/** Whether a saved work value holds a secret (to refuse saving it in clear). */
export function outputWorkHoldsSecrets(work: OutputWork | undefined): boolean {
  if (!work) return false;
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object' || isRef(v) || isSensitive(v)) return false;
    if ((v as { '@converge'?: unknown })['@converge'] === 'secret') return true;
    return Object.values(v).some(walk);
  };
  return Object.values(work.declared).some(walk);
}
