// A saved plan's work list: each step's work as the file holds it (flat, every kind's fields
// optional, without handlers), and the way back: the step's kind read from its action, the fields
// its kind needs checked (a file without them is corrupt), its nodes checked against the kind,
// and the handlers re-attached from the applying engine's providers by resource type.
import type { Provider } from '../provider/define.js';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { DeposedObject, ResourceState } from '../../state/model.js';
import type { Step } from './step.js';
import type { ExecNode, NodeKind, OrderedWork, Resolved, StepWork } from './work.js';
import { getPath, parsePath } from '../values/path.js';
import { PlanFileError } from './plan-errors.js';
import { checkProviders, type ProviderPrint } from './plan-providers.js';
import { instanceLabel } from '../provider/instance.js';

/** A step as saved: the fields of its work (those of its kind), without the kind and the handlers. */
export type SavedStep = {
  readonly step: Step;
  readonly decl?: ResourceDecl;
  readonly prior?: ResourceState;
  readonly priorName?: string;
  readonly deposed?: DeposedObject;
  readonly deposedKey?: string;
  readonly secrets: readonly string[];
  readonly deps: readonly string[];
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly refreshed?: ResourceState;
  readonly retain?: boolean;
  readonly nodes: readonly ExecNode[];
};

/** The work of a step as a file holds it. */
export function toSaved(w: StepWork): SavedStep {
  return {
    step: w.step,
    ...('decl' in w && w.decl ? { decl: w.decl } : {}),
    ...('prior' in w ? { prior: w.prior, priorName: w.priorName } : {}),
    ...('deposed' in w ? { deposed: w.deposed } : {}),
    ...('deposedKey' in w ? { deposedKey: w.deposedKey } : {}),
    secrets: w.secrets,
    deps: w.deps,
    ...('inputs' in w && w.inputs ? { inputs: w.inputs } : {}),
    ...('refreshed' in w && w.refreshed ? { refreshed: w.refreshed } : {}),
    ...('retain' in w && w.retain ? { retain: w.retain } : {}),
    nodes: w.nodes,
  };
}

/** True when any step holds a value at one of its secret paths. */
export function holdsSecrets(steps: readonly SavedStep[]): boolean {
  return steps.some((s) =>
    s.secrets.some((path) => {
      const [root, ...rest] = parsePath(path);
      const sources =
        root === 'inputs'
          ? [s.inputs, s.decl?.inputs, s.prior?.inputs, s.refreshed?.inputs, s.deposed?.inputs]
          : [s.prior?.outputs, s.refreshed?.outputs, s.deposed?.outputs];
      return sources.some((src) => src !== undefined && getPath(src, rest) !== undefined);
    }),
  );
}

/** The nodes each kind of step may have (execution.ts makes them). */
const NODES: Readonly<Record<OrderedWork['kind'], readonly NodeKind[]>> = {
  create: ['create'],
  update: ['update', 'record'],
  noop: ['record'],
  'replace-delete-first': ['delete', 'forget', 'create'],
  'replace-create-first': ['create-replacement', 'delete-deposed', 'forget-deposed'],
  delete: ['delete'],
  forget: ['forget'],
  'delete-deposed': ['delete-deposed'],
};

/** The saved steps with their handlers, from the engine's providers; refuses a plan they cannot serve. */
export function restoreWork(
  saved: readonly SavedStep[],
  planProviders: readonly ProviderPrint[],
  engineProviders: readonly Provider<unknown>[],
  resolve: (token: string, instance?: string) => Resolved | undefined,
  where: string,
): StepWork[] {
  checkProviders(planProviders, engineProviders, where);
  return saved.map((s) => {
    const r = resolve(s.step.type, s.step.instance);
    if (!r || r.provider.name !== s.step.provider)
      throw new PlanFileError(
        'providers_mismatch',
        where,
        `no provider ${instanceLabel(s.step.provider, s.step.instance)} serves ${s.step.type} (step ${s.step.address})`,
      );
    const priorObject = s.deposed ?? s.prior;
    const priorType = priorObject?.type;
    // A replacement that moves to another type or instance deletes the old object through its own.
    const other = !!priorObject && (priorType !== s.step.type || priorObject.instance !== s.step.instance);
    const pr = other ? resolve(priorType!, priorObject.instance) : undefined;
    if (other && !pr)
      throw new PlanFileError(
        'providers_mismatch',
        where,
        `no provider ${instanceLabel(priorObject.provider, priorObject.instance)} serves ${priorType} (step ${s.step.address})`,
      );
    const work = restoreStep(s, r, pr, where);
    const stray = work.nodes.find((n) => !NODES[work.kind].includes(n.kind));
    if (stray) throw corrupt(where, s, `a ${stray.kind} node`);
    return work;
  });
}

/** One saved step as the work of its kind, with the fields that kind needs. */
function restoreStep(s: SavedStep, r: Resolved, pr: Resolved | undefined, where: string): StepWork {
  const common = { step: s.step, def: r.def, provider: r.provider, secrets: s.secrets, deps: s.deps, nodes: s.nodes };
  const recorded = () => {
    if (!s.prior || s.priorName === undefined) throw corrupt(where, s, 'no recorded object');
    return { prior: s.prior, priorName: s.priorName };
  };
  const declared = () => {
    if (!s.decl) throw corrupt(where, s, 'no declaration');
    return { decl: s.decl, ...(s.inputs ? { inputs: s.inputs } : {}) };
  };
  if (s.deposed) return { ...common, kind: 'delete-deposed', deposed: s.deposed };
  switch (s.step.action) {
    case 'create':
      return { ...common, ...declared(), kind: 'create' };
    case 'update':
      return { ...common, ...declared(), ...recorded(), kind: 'update' };
    case 'noop':
      return {
        ...common,
        ...recorded(),
        kind: 'noop',
        ...(s.decl ? { decl: s.decl } : {}),
        ...(s.refreshed ? { refreshed: s.refreshed } : {}),
      };
    case 'delete':
    case 'forget':
      return { ...common, ...recorded(), kind: s.step.action };
    case 'replace': {
      const replacing = {
        ...common,
        ...declared(),
        ...recorded(),
        ...(pr ? { priorDef: pr.def, priorProvider: pr.provider } : {}),
        ...(s.retain ? { retain: true } : {}),
      };
      if (!s.step.createBeforeDestroy) return { ...replacing, kind: 'replace-delete-first' };
      if (s.deposedKey === undefined) throw corrupt(where, s, 'no deposed key');
      return { ...replacing, kind: 'replace-create-first', deposedKey: s.deposedKey };
    }
  }
  throw corrupt(where, s, 'an unknown action');
}

function corrupt(where: string, s: SavedStep, what: string): PlanFileError {
  return new PlanFileError('corrupt', where, `step '${s.step.address}' (${String(s.step.action)}) has ${what}`);
}
