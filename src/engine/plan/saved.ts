// Saved plans: a plan made in one process (a CI job, for review) applied in another exactly as
// reviewed. The file holds the public plan (what a reviewer reads, secrets redacted) and the
// internal work list apply runs: every step's real inputs, the prior objects and the execution
// nodes. Handlers are not saved: apply re-attaches them from its engine's providers by resource
// type, and refuses a plan whose providers or declarations differ. The work list is sealed with
// AES-256-GCM under a key derived from the secrets passphrase (the state's mechanism); without a
// passphrase a plan holding secret values is refused unless the caller allows it in clear.
//
//   { "format": "converge-plan", "formatVersion": 1, "plan": PlanJSON, "providers": [...],
//     "encryption": null | { kdf, salt, check }, "work": { declarations, steps } | sealed }
import { createHash } from 'node:crypto';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Provider } from '../provider/define.js';
import type { StepWork, Resolved } from './work.js';
import type { PlanJSON } from './json.js';
import { PLAN_FORMAT_VERSION } from './json.js';
import { SecretCodec, isSealed, type EncryptionHeader, type SealedValue } from '../../state/crypto.js';
import { getPath, parsePath } from '../values/path.js';
import { PlanFileError } from './plan-errors.js';

const PLAN_FILE_FORMAT = 'converge-plan';

/** A step as saved: the work without its handlers. */
type SavedStep = Omit<StepWork, 'def' | 'provider' | 'priorDef' | 'priorProvider'>;
export type SavedWork = { readonly declarations: string; readonly steps: readonly SavedStep[] };
export type ProviderPrint = { readonly name: string; readonly resources: readonly string[] };

type PlanFile = {
  readonly format: typeof PLAN_FILE_FORMAT;
  readonly formatVersion: number;
  readonly plan: PlanJSON;
  readonly providers: readonly ProviderPrint[];
  readonly encryption: EncryptionHeader | null;
  readonly work: SavedWork | SealedValue;
};

/** Options of `plan.save()` and `plan.serialize()`. */
export type SaveOptions = {
  /** Encrypts the plan's work list; default CONVERGE_SECRETS_PASSPHRASE. */
  readonly passphrase?: string;
  /** Writes secret values in clear when no passphrase is given (else such a plan is refused). */
  readonly allowPlaintextSecrets?: boolean;
};
/** Options of `Plan.load()` and `Plan.parse()`. */
export type LoadOptions = {
  /** The passphrase the plan's secrets were sealed with; default CONVERGE_SECRETS_PASSPHRASE. */
  readonly passphrase?: string;
};

/** What an engine-made plan knows of where it came from, to save and to check at apply. */
export type PlanOrigin = { readonly providers: readonly ProviderPrint[]; readonly declarations: string };

export function providerPrints(providers: readonly Provider<unknown>[]): ProviderPrint[] {
  return providers
    .map((p) => ({ name: p.name, resources: [...p.resources.keys()].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A digest of the declarations (order of the list does not count). */
export function declarationsDigest(decls: readonly ResourceDecl[]): string {
  const sorted = [...decls].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `sha256:${createHash('sha256').update(canonical(sorted)).digest('hex')}`;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function toSaved(work: readonly StepWork[]): SavedStep[] {
  return work.map(({ def: _d, provider: _p, priorDef: _pd, priorProvider: _pp, ...rest }) => rest);
}

/** True when any step holds a value at one of its secret paths. */
function holdsSecrets(steps: readonly SavedStep[]): boolean {
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

export async function encodePlanFile(
  plan: PlanJSON,
  origin: PlanOrigin,
  work: readonly StepWork[],
  where: string,
  options: SaveOptions,
): Promise<string> {
  const inner: SavedWork = { declarations: origin.declarations, steps: toSaved(work) };
  const passphrase = options.passphrase ?? (process.env.CONVERGE_SECRETS_PASSPHRASE || undefined);
  let body: SavedWork | SealedValue = inner;
  let encryption: EncryptionHeader | null = null;
  if (passphrase !== undefined) {
    const codec = await SecretCodec.create(where, passphrase, undefined);
    body = codec.sealValue(inner) as SealedValue;
    encryption = codec.header!;
  } else if (!options.allowPlaintextSecrets && holdsSecrets(inner.steps)) {
    const n = inner.steps.filter((s) => holdsSecrets([s])).map((s) => s.step.address);
    throw new PlanFileError(
      'secrets_in_clear',
      where,
      `${n.length} step${n.length === 1 ? '' : 's'} (${n.slice(0, 5).join(', ')}) hold secret values`,
    );
  }
  const file: PlanFile = {
    format: PLAN_FILE_FORMAT,
    formatVersion: PLAN_FORMAT_VERSION,
    plan,
    providers: origin.providers,
    encryption,
    work: body,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

type DecodedPlanFile = {
  readonly plan: PlanJSON;
  readonly providers: readonly ProviderPrint[];
  readonly work: SavedWork;
};

export async function decodePlanFile(text: string, where: string, options: LoadOptions): Promise<DecodedPlanFile> {
  let file: PlanFile;
  try {
    file = JSON.parse(text) as PlanFile;
  } catch (error) {
    throw new PlanFileError('corrupt', where, `not JSON (${(error as Error).message})`);
  }
  if (!file || typeof file !== 'object' || file.format !== PLAN_FILE_FORMAT)
    throw new PlanFileError('corrupt', where, 'not a converge plan file');
  if (file.formatVersion !== PLAN_FORMAT_VERSION)
    throw new PlanFileError(
      'unknown_version',
      where,
      `formatVersion ${JSON.stringify(file.formatVersion)}; this version reads ${PLAN_FORMAT_VERSION}`,
    );
  if (!file.plan || !Array.isArray(file.plan.steps) || !Array.isArray(file.providers))
    throw new PlanFileError('corrupt', where, 'the plan or its providers are missing');
  let work: SavedWork;
  if (isSealed(file.work)) {
    if (!file.encryption) throw new PlanFileError('corrupt', where, 'sealed work without an encryption header');
    const codec = await SecretCodec.create(
      where,
      options.passphrase ?? (process.env.CONVERGE_SECRETS_PASSPHRASE || undefined),
      file.encryption,
    );
    work = codec.openValue(file.work) as SavedWork;
  } else work = file.work as SavedWork;
  if (!work || !Array.isArray(work.steps) || typeof work.declarations !== 'string')
    throw new PlanFileError('corrupt', where, 'the work list is missing');
  const reviewed = JSON.stringify(file.plan.steps);
  const carried = JSON.stringify(work.steps.map((s) => s.step));
  if (stepsDiffer(reviewed, carried))
    throw new PlanFileError('corrupt', where, 'the steps shown differ from the steps it would apply');
  return { plan: file.plan, providers: file.providers, work };
}

// The public steps are the internal ones minus fields the JSON leaves out; compare what both hold.
function stepsDiffer(reviewed: string, carried: string): boolean {
  const a = JSON.parse(reviewed) as Record<string, unknown>[];
  const b = JSON.parse(carried) as Record<string, unknown>[];
  if (a.length !== b.length) return true;
  return a.some((s, i) => Object.keys(s).some((k) => canonical(s[k]) !== canonical(b[i]![k])));
}

/** The saved steps with their handlers, from the engine's providers; refuses a plan they cannot serve. */
export function restoreWork(
  saved: readonly SavedStep[],
  planProviders: readonly ProviderPrint[],
  engineProviders: readonly Provider<unknown>[],
  resolve: (token: string) => Resolved | undefined,
  where: string,
): StepWork[] {
  const mine = providerPrints(engineProviders);
  const byName = new Map(mine.map((p) => [p.name, p]));
  for (const p of planProviders) {
    const m = byName.get(p.name);
    if (!m)
      throw new PlanFileError(
        'providers_mismatch',
        where,
        `the plan was made with provider '${p.name}', which this engine does not have`,
      );
    if (canonical(m.resources) !== canonical(p.resources))
      throw new PlanFileError(
        'providers_mismatch',
        where,
        `provider '${p.name}' serves other resource types than when the plan was made`,
      );
  }
  if (mine.length !== planProviders.length)
    throw new PlanFileError(
      'providers_mismatch',
      where,
      `the plan was made with ${planProviders.length} providers, this engine has ${mine.length}`,
    );
  return saved.map((s) => {
    const r = resolve(s.step.type);
    if (!r || r.provider.name !== s.step.provider)
      throw new PlanFileError(
        'providers_mismatch',
        where,
        `no provider '${s.step.provider}' serves ${s.step.type} (step ${s.step.address})`,
      );
    const priorType = (s.deposed ?? s.prior)?.type;
    const pr = priorType && priorType !== s.step.type ? resolve(priorType) : undefined;
    if (priorType && priorType !== s.step.type && !pr)
      throw new PlanFileError('providers_mismatch', where, `no provider serves ${priorType} (step ${s.step.address})`);
    return { ...s, def: r.def, provider: r.provider, ...(pr ? { priorDef: pr.def, priorProvider: pr.provider } : {}) };
  });
}
