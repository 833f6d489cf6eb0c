// Saved plans: a plan made in one process (a CI job, for review) applied in another exactly as
// reviewed. The file holds the public plan (what a reviewer reads, secrets redacted), the providers
// it was made with (names, resource types, non-secret settings) and the internal work list apply
// runs: every step's real inputs, the prior objects and the execution nodes. Handlers are not
// saved: apply re-attaches them from its engine's providers by resource type, and refuses a plan
// whose providers, their settings or the declarations differ. The work list is sealed with
// AES-256-GCM under a key derived from the secrets passphrase (the state's mechanism); without a
// passphrase a plan holding secret values is refused unless the caller allows it in clear.
// `integrity` covers everything else in the file (plan-integrity.ts) and is checked before any of
// it is used: a MAC under the signing key or the passphrase when one is given, else a digest.
//
//   { "format": "converge-plan", "formatVersion": 1, "plan": PlanJSON, "providers": [...],
//     "encryption": null | { kdf, salt, check }, "work": { declarations, steps } | sealed,
//     "integrity": { alg, key?, salt?, digest } }
import { createHash } from 'node:crypto';
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { StepWork } from './work.js';
import type { PlanJSON } from './json.js';
import { PLAN_FORMAT_VERSION } from './json.js';
import { SecretCodec, isSealed, type EncryptionHeader, type SealedValue } from '../../state/crypto.js';
import { SecretsPassphraseError } from '../../state/errors.js';
import { PlanFileError } from './plan-errors.js';
import {
  canonical,
  checkIntegrity as checkDigest,
  readIntegrity,
  sealIntegrity,
  MIN_SIGNING_KEY_LENGTH,
  type Integrity,
  type IntegrityKey,
} from './plan-integrity.js';
import type { ProviderPrint } from './plan-providers.js';
import type { PolicyUse } from './policy.js';
import { holdsSecrets, toSaved, type SavedStep } from './saved-work.js';
import { outputWorkHoldsSecrets, type OutputWork } from './outputs.js';

export { providerPrints, type ProviderPrint } from './plan-providers.js';

const PLAN_FILE_FORMAT = 'converge-plan';

export type SavedWork = {
  readonly declarations: string;
  /** Each declaration's short digest by name, to name the one that differs at apply. */
  readonly resources?: Readonly<Record<string, string>>;
  readonly steps: readonly SavedStep[];
  /** The stack outputs apply records (declared values, secret() inside): sealed with the rest. */
  readonly outputs?: OutputWork;
};

type PlanFile = {
  readonly format: typeof PLAN_FILE_FORMAT;
  readonly formatVersion: number;
  readonly plan: PlanJSON;
  readonly providers: readonly ProviderPrint[];
  readonly encryption: EncryptionHeader | null;
  readonly work: SavedWork | SealedValue;
  readonly integrity: Integrity;
};

/** Options of `plan.save()` and `plan.serialize()`. */
export type SaveOptions = {
  /** Encrypts the plan's work list and keys its MAC; default CONVERGE_SECRETS_PASSPHRASE. */
  readonly passphrase?: string;
  /**
   * Keys the plan's MAC (HMAC-SHA-256) instead of the passphrase: apply must be given the same;
   * default CONVERGE_PLAN_SIGNING_KEY. At least 16 characters (e.g. `openssl rand -base64 32`).
   */
  readonly signingKey?: string;
  /** Writes secret values in clear when no passphrase is given (else such a plan is refused). */
  readonly allowPlaintextSecrets?: boolean;
};
/** Options of `Plan.load()` and `Plan.parse()`. */
export type LoadOptions = {
  /** The passphrase the plan's secrets were sealed with; default CONVERGE_SECRETS_PASSPHRASE. */
  readonly passphrase?: string;
  /** The key the plan was signed with; default CONVERGE_PLAN_SIGNING_KEY. */
  readonly signingKey?: string;
  /**
   * Policies to check the loaded plan with (its `violations` and `pendingChecks`); the findings
   * written in the file are not read back. The applying engine's own policies are checked at apply.
   */
  readonly policies?: readonly PolicyUse[];
};

/** What an engine-made plan knows of where it came from, to save and to check at apply. */
export type PlanOrigin = {
  readonly providers: readonly ProviderPrint[];
  readonly declarations: string;
  readonly resources?: Readonly<Record<string, string>>;
  /** The stack outputs the plan declares, for apply to record. */
  readonly outputs?: OutputWork;
};

const fromEnv = (option: string | undefined, name: string) => option ?? (process.env[name] || undefined);

/** A digest of the declarations (order of the list does not count). */
export function declarationsDigest(decls: readonly ResourceDecl[]): string {
  const sorted = [...decls].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `sha256:${createHash('sha256').update(canonical(sorted)).digest('hex')}`;
}

/** Each declaration's short digest by name (what tells which one differs; the full digest decides). */
export function declarationPrints(decls: readonly ResourceDecl[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of decls) out[d.name] = createHash('sha256').update(canonical(d)).digest('hex').slice(0, 16);
  return out;
}

/** The key a plan's MAC is made with: the signing key, else the passphrase, else none (a plain digest). */
function integrityKey(signingKey: string | undefined, passphrase: string | undefined): IntegrityKey | undefined {
  if (signingKey !== undefined) {
    if (signingKey.length < MIN_SIGNING_KEY_LENGTH)
      throw new TypeError(`Expected \`signingKey\` to be at least ${MIN_SIGNING_KEY_LENGTH} characters`);
    return { kind: 'signing-key', secret: signingKey };
  }
  return passphrase !== undefined ? { kind: 'passphrase', secret: passphrase } : undefined;
}

export async function encodePlanFile(
  plan: PlanJSON,
  origin: PlanOrigin,
  work: readonly StepWork[],
  where: string,
  options: SaveOptions,
): Promise<string> {
  const inner: SavedWork = {
    declarations: origin.declarations,
    ...(origin.resources ? { resources: origin.resources } : {}),
    steps: work.map(toSaved),
    ...(origin.outputs ? { outputs: origin.outputs } : {}),
  };
  const passphrase = fromEnv(options.passphrase, 'CONVERGE_SECRETS_PASSPHRASE');
  const key = integrityKey(fromEnv(options.signingKey, 'CONVERGE_PLAN_SIGNING_KEY'), passphrase);
  let body: SavedWork | SealedValue = inner;
  let encryption: EncryptionHeader | null = null;
  if (passphrase !== undefined) {
    const codec = await SecretCodec.create(where, passphrase, undefined);
    body = codec.sealValue(inner) as SealedValue;
    encryption = codec.header!;
  } else if (!options.allowPlaintextSecrets && (holdsSecrets(inner.steps) || outputWorkHoldsSecrets(inner.outputs))) {
    const n = inner.steps.filter((s) => holdsSecrets([s])).map((s) => s.step.address);
    if (outputWorkHoldsSecrets(inner.outputs)) n.push('its outputs');
    throw new PlanFileError(
      'secrets_in_clear',
      where,
      `${n.length} step${n.length === 1 ? '' : 's'} (${n.slice(0, 5).join(', ')}) hold secret values`,
    );
  }
  const file: Omit<PlanFile, 'integrity'> = {
    format: PLAN_FILE_FORMAT,
    formatVersion: PLAN_FORMAT_VERSION,
    plan,
    providers: origin.providers,
    encryption,
    work: body,
  };
  // Digested as it will be read back: what JSON keeps of it.
  const integrity = await sealIntegrity(JSON.parse(JSON.stringify(file)) as Record<string, unknown>, key);
  return `${JSON.stringify({ ...file, integrity } satisfies PlanFile, null, 2)}\n`;
}

type DecodedPlanFile = {
  readonly plan: PlanJSON;
  readonly providers: readonly ProviderPrint[];
  readonly work: SavedWork;
};

const corrupt = (where: string, detail: string) => new PlanFileError('corrupt', where, detail);

export async function decodePlanFile(text: string, where: string, options: LoadOptions): Promise<DecodedPlanFile> {
  let file: PlanFile;
  try {
    file = JSON.parse(text) as PlanFile;
  } catch (error) {
    throw corrupt(where, `not JSON (${(error as Error).message})`);
  }
  if (!file || typeof file !== 'object' || Array.isArray(file) || file.format !== PLAN_FILE_FORMAT)
    throw corrupt(where, 'not a converge plan file');
  if (file.formatVersion !== PLAN_FORMAT_VERSION)
    throw new PlanFileError(
      'unknown_version',
      where,
      `formatVersion ${JSON.stringify(file.formatVersion)}; this version reads ${PLAN_FORMAT_VERSION}`,
    );
  const codec = await checkIntegrity(file, where, options);
  if (!file.plan || !Array.isArray(file.plan.steps) || !Array.isArray(file.providers))
    throw corrupt(where, 'the plan or its providers are missing');
  if (file.plan.destroy !== (file.plan.mode === 'destroy'))
    throw corrupt(where, `its destroy (${String(file.plan.destroy)}) and mode ('${String(file.plan.mode)}') disagree`);
  if (!file.providers.every((p) => p && typeof p.settings === 'object' && p.settings !== null))
    throw corrupt(where, "a provider's settings are missing");
  let work: SavedWork;
  if (isSealed(file.work) && codec) {
    try {
      work = codec.openValue(file.work) as SavedWork;
    } catch {
      throw corrupt(where, 'the sealed work list does not open');
    }
  } else work = file.work as SavedWork;
  if (!work || !Array.isArray(work.steps) || typeof work.declarations !== 'string')
    throw corrupt(where, 'the work list is missing');
  const differs = stepDiffering(file.plan.steps, work.steps);
  if (differs) throw corrupt(where, `the steps shown differ from the steps it would apply (${differs})`);
  return { plan: file.plan, providers: file.providers, work };
}

/**
 * Checks the file's integrity member before anything else of it is used; answers the codec that
 * opens its sealed work (passphrase checked), if any. Refuses an edited file ('corrupt'), a signed
 * one without its key, and an unsigned one when a key to check a signature was given ('unsigned').
 */
async function checkIntegrity(file: PlanFile, where: string, options: LoadOptions): Promise<SecretCodec | undefined> {
  const integrity = readIntegrity(file.integrity);
  if (!integrity)
    throw corrupt(
      where,
      'it carries no valid integrity digest (it was edited, or saved by a converge release before plan files had one)',
    );
  const passphrase = fromEnv(options.passphrase, 'CONVERGE_SECRETS_PASSPHRASE');
  const signingKey = fromEnv(options.signingKey, 'CONVERGE_PLAN_SIGNING_KEY');
  const kind = integrity.alg === 'sha256' ? undefined : integrity.key;
  if (signingKey !== undefined && kind !== 'signing-key')
    throw new PlanFileError(
      'unsigned',
      where,
      'a plan signing key was given, but the plan is not signed with one: anyone who can write the file could have made it',
    );
  if (passphrase !== undefined && kind === undefined)
    throw new PlanFileError(
      'unsigned',
      where,
      'a passphrase was given, but the plan carries no MAC: anyone who can write the file could have made it',
    );
  if (kind === 'signing-key' && signingKey === undefined)
    throw new PlanFileError('unsigned', where, 'the plan is signed with a plan signing key, and none was given');
  if (kind === 'passphrase' && passphrase === undefined) throw new SecretsPassphraseError(where, 'missing');
  const key = kind === 'signing-key' ? integrityKey(signingKey, undefined) : integrityKey(undefined, passphrase);
  const { holds, rightKey } = await checkDigest(file as unknown as Record<string, unknown>, integrity, key);
  // A key other than the plan's is named as such; under the right key (its check, or the
  // encryption header's, passes) a MAC that fails is an edit.
  let codec: SecretCodec | undefined;
  if (file.encryption && passphrase !== undefined) {
    try {
      codec = await SecretCodec.create(where, passphrase, file.encryption);
    } catch (error) {
      throw holds || rightKey ? corrupt(where, 'its encryption header was edited or damaged') : error;
    }
  }
  if (!holds)
    throw corrupt(
      where,
      kind === undefined
        ? 'its digest does not match: the file was edited or damaged'
        : rightKey || (kind === 'passphrase' && codec)
          ? 'its MAC does not match: the file was edited or damaged'
          : `its MAC does not match: it was made with another ${kind === 'passphrase' ? 'passphrase' : 'signing key'}, or the file was edited or damaged`,
    );
  if (isSealed(file.work) && !codec) {
    if (!file.encryption) throw corrupt(where, 'sealed work without an encryption header');
    throw new SecretsPassphraseError(where, 'missing');
  }
  return codec;
}

// The public steps are the internal ones minus fields the JSON leaves out; compare what both hold.
// Answers which step and field differ, or undefined.
function stepDiffering(reviewed: readonly unknown[], carried: readonly SavedStep[]): string | undefined {
  if (reviewed.length !== carried.length) return `${reviewed.length} shown, ${carried.length} carried`;
  for (let i = 0; i < reviewed.length; i++) {
    const shown = reviewed[i] as Record<string, unknown>;
    const step = carried[i]!.step as unknown as Record<string, unknown>;
    const field = Object.keys(shown ?? {}).find((k) => canonical(shown[k]) !== canonical(step?.[k]));
    if (field !== undefined || !shown)
      return `step ${i} '${String(step?.address ?? shown?.address)}': ${field ?? 'missing'}`;
    // The id shown is the id apply reads, updates or deletes.
    const object = carried[i]!.deposed ?? carried[i]!.prior;
    if (object && step.id !== undefined && object.id !== step.id)
      return `step ${i} '${String(step.address)}': shows id ${JSON.stringify(step.id)}, would act on '${object.id}'`;
  }
  return undefined;
}
