// A refresh-only plan (Terraform's `plan -refresh-only`): the drift refresh found, as steps that
// only record it: a record node for each object whose inputs or outputs changed outside converge,
// a forget node for each one deleted outside. Its apply calls no provider mutation.
import type { ResourceState, State } from '../../state/model.js';
import { own } from '../../state/keys.js';
import { redactPaths } from '../values/redact.js';
import { strip } from './secrets.js';
import type { Step } from './step.js';
import type { Resolved, StepWork } from './work.js';

export function refreshOnlyWork(
  state: State,
  refreshed: ReadonlyMap<string, ResourceState | null>,
  resolve: (token: string, instance?: string) => Resolved | undefined,
): StepWork[] {
  const work: StepWork[] = [];
  const names = [...refreshed.keys()].sort();
  for (const name of names) {
    const prior = own(state.resources, name)!;
    const r = refreshed.get(name)!;
    const resolved = resolve(prior.type, prior.instance);
    if (!resolved || r === prior) continue;
    const i = work.length;
    const before = redactPaths(prior.inputs, strip('inputs.', prior.secrets)) as Record<string, unknown>;
    const step: Step = {
      address: name,
      type: prior.type,
      provider: prior.provider,
      ...(prior.instance !== undefined ? { instance: prior.instance } : {}),
      action: r === null ? 'forget' : 'noop',
      reasons: [],
      cause: r === null ? 'gone' : 'drift',
      changes: [],
      before,
      after:
        r === null ? undefined : (redactPaths(r.inputs, strip('inputs.', prior.secrets)) as Record<string, unknown>),
      dependsOn: [],
      id: prior.id,
    };
    const common = {
      step,
      def: resolved.def,
      provider: resolved.provider,
      priorName: name,
      secrets: prior.secrets,
      deps: [...prior.dependencies],
    };
    work.push(
      r === null
        ? { ...common, kind: 'forget', prior, nodes: [{ id: `forget:${i}`, kind: 'forget', waitFor: [] }] }
        : {
            ...common,
            kind: 'noop',
            prior: r,
            refreshed: r,
            nodes: [{ id: `record:${i}`, kind: 'record', waitFor: [] }],
          },
    );
  }
  return work;
}
