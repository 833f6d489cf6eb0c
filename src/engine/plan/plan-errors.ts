// Why a saved plan cannot be applied (or saved): each reason carries its facts. A stale state is
// StalePlanError; everything else about a plan file is PlanFileError.
import { ConvergeError } from '../errors.js';

/** Why a plan file (or a plan given to apply) was refused: the `problem` of a {@link PlanFileError}. */
export type PlanFileProblem =
  /** The file's format or formatVersion is not one this version of converge reads. */
  | 'unknown_version'
  /** The file is not a plan file, or it was edited or damaged (its digest or MAC does not match). */
  | 'corrupt'
  /**
   * The plan's MAC cannot be checked: it is signed with a plan signing key and none was given, or a
   * key was given (signing key or passphrase) and the plan carries no MAC under it.
   */
  | 'unsigned'
  /** The engine's providers (names, resource types or settings such as region) differ from the plan's. */
  | 'providers_mismatch'
  /** The declarations given to apply differ from the ones the plan was made from. */
  | 'declarations_mismatch'
  /** The plan holds secret values and no passphrase was given to encrypt them. */
  | 'secrets_in_clear'
  /** The plan was not made by engine.plan() or Plan.load(). */
  | 'not_a_plan';

/**
 * A saved plan cannot be written, read or applied: thrown by `Plan.save`/`serialize` (secrets and
 * no passphrase), `Plan.load`/`parse` (an unknown version, an edited or damaged file, a MAC it
 * cannot check) and `engine.apply` of a loaded plan (other providers or provider settings, other
 * declarations). A stale state is {@link StalePlanError}
 * instead. Nothing was changed. Code `CONVERGE_PLAN_FILE`.
 *
 * @example
 * ```ts
 * import { Plan, PlanFileError } from 'converge';
 * try {
 *   await Plan.load('plan.json', { passphrase: process.env.CONVERGE_SECRETS_PASSPHRASE });
 * } catch (e) {
 *   if (e instanceof PlanFileError) throw new Error(`make the plan again (${e.problem}: ${e.detail})`, { cause: e });
 *   else throw e;
 * }
 * ```
 */
export class PlanFileError extends ConvergeError {
  override readonly name = 'PlanFileError';
  override readonly code = 'CONVERGE_PLAN_FILE';
  constructor(
    /** What is wrong, e.g. `corrupt`, `providers_mismatch`, `secrets_in_clear`. */
    readonly problem: PlanFileProblem,
    /** The plan file's path (or `plan` for one in memory). */
    readonly where: string,
    /** The specifics: which provider or field differs, what is damaged. */
    readonly detail: string,
  ) {
    super(`${HEAD[problem]} (${where}): ${detail}; nothing was changed.\n${HINT[problem]}`);
  }
}

const HEAD: Record<PlanFileProblem, string> = {
  unknown_version: 'The plan file has a format this version of converge does not read',
  corrupt: 'The plan file was edited or damaged',
  unsigned: "The plan file's MAC cannot be checked",
  providers_mismatch: "The engine's providers differ from the ones the plan was made with",
  declarations_mismatch: 'The declarations differ from the ones the plan was made from',
  secrets_in_clear: 'The plan holds secret values and no passphrase was given to encrypt them',
  not_a_plan: 'Not a plan',
};

const HINT: Record<PlanFileProblem, string> = {
  unknown_version: 'Make the plan again with this version of converge.',
  corrupt: 'Make the plan again; never edit a saved plan by hand.',
  unsigned:
    'Load it with the key it was saved with (signingKey or CONVERGE_PLAN_SIGNING_KEY; passphrase or CONVERGE_SECRETS_PASSPHRASE), or make the plan again with it.',
  providers_mismatch: 'Apply it with an engine configured like the one that made it, or plan again.',
  declarations_mismatch: 'Plan again from the current declarations.',
  secrets_in_clear:
    'Pass `passphrase` (or set CONVERGE_SECRETS_PASSPHRASE), or `allowPlaintextSecrets: true` to write them in clear.',
  not_a_plan: 'Pass a Plan returned by engine.plan() or Plan.load().',
};
