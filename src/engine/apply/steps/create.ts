// create and create-replacement: make a new object.
//
// Before the provider call: a pending create (written ahead in chunks by intents.ts when the plan
// knew the inputs), holding the inputs, the time it started and an operation id the provider may
// tag the object with; for a create-first replacement also the key the old object is deposed under.
// After it: the object recorded (create-replacement: the new object current and the old one
// deposed, in one change), the pending record cleared.
//
// A crash between the two leaves the pending record: the next plan's recovery asks `find`
// (adopting what it finds, deposing the old object if the record says so). Failures:
// - a definite refusal (4xx) made nothing: the pending record is dropped, nothing is looked for
//   (find could otherwise claim someone else's object), and the error says how to adopt one;
// - an unknown outcome (lost answer, 5xx, reset) is looked for with `find`: found, it is
//   adopted; surely absent, the create is tried again while the retry policy allows; cannot tell,
//   the pending record stays for the next plan;
// - PartialCreateError, or a timeout after which `find` sees the object: the object is recorded
//   as tainted, so nothing is lost and the next plan replaces it.
import type { StepRun } from './context.js';
import type { CreateFirstWork, CreateWork, DeclaredWork, DeleteFirstWork } from '../../plan/work.js';
import type { DeposedObject, ResourceState } from '../../../state/model.js';
import {
  clearPending,
  markPending,
  recordDeposed,
  recordRename,
  recordResource,
  updatePending,
} from '../../../state/ops.js';
import {
  isCannotTell,
  type AnyResource,
  type CreateResult,
  type FindHint,
  type FindResult,
} from '../../provider/define.js';
import { instanceFields } from '../../provider/instance.js';
import { PartialCreateError, ProviderError } from '../../errors.js';
import { isTransient, sleep, backoffFor } from '../../run/retry.js';
import { MAX_TIMER_MS } from './context.js';
import { stepSignal, raceSignal } from '../../run/timeout.js';
import { ownSignal } from '../../run/signal.js';
import { storedOptions } from '../../plan/options.js';

/** How long `find` may look after a failed create: the create's own limit again, at most this. */
const FIND_AFTER_FAILURE_MS = 60_000;

/** Runs a create, or a delete-first replacement's (its old object is gone by now). Returns the new id. */
export function runCreate(run: StepRun, w: CreateWork | DeleteFirstWork): Promise<string> {
  return create(run, w);
}

/** Runs a create-first replacement's create: the new object current, the old one deposed. Returns the new id. */
export async function runCreateReplacement(run: StepRun, w: CreateFirstWork): Promise<string> {
  let current = w.prior;
  if (w.priorName !== run.address) {
    // A renamed resource replaced create-first: its record moves to the new name first (one change),
    // so the new object, the deposed old one and any recovery all go by the new name.
    const moved = { ...current, name: run.address };
    await run.ctx.ledger.commit((serial) => recordRename(serial, moved, w.priorName));
    current = moved;
  }
  return create(run, w, { current, deposedKey: w.deposedKey });
}

/** The current object a create-first replacement deposes, and the key it is deposed under. */
type Replacing = { readonly current: ResourceState; readonly deposedKey: string };

async function create(run: StepRun, w: DeclaredWork, replacing?: Replacing): Promise<string> {
  const { ctx } = run;
  const name = run.address;
  const inputs = run.desired(w);
  // A create whose inputs the plan knew may have its pending record written ahead (intents.ts).
  let pendingId = (w.kind === 'create' && (await ctx.intents?.take(w))) || '';
  if (!pendingId) {
    await ctx.ledger.commit((serial) => {
      const m = markPending(serial, {
        startedAt: run.stamp,
        kind: 'create',
        type: w.step.type,
        name,
        provider: w.provider.name,
        ...instanceFields(w.provider),
        inputs,
        secrets: run.secrets.filter((s) => s.startsWith('inputs.')),
        dependencies: [...w.deps],
        options: storedOptions(w.decl.options),
        ...(w.def.existing ? { existing: null } : {}),
        ...(replacing ? { resourceId: replacing.current.id, deposedKey: replacing.deposedKey } : {}),
      });
      pendingId = m.pending.id;
      return m.change;
    });
  }
  const hint: Hint = { startedAt: run.stamp, operationId: pendingId };
  const commitObject = (made: ResourceState) =>
    ctx.ledger.commit((serial) =>
      replacing
        ? recordDeposed(serial, made, deposedOf(replacing, run.stamp), pendingId)
        : recordResource(serial, made, pendingId),
    );

  let result: CreateResult;
  try {
    result = await createOrAdopt(run, inputs, hint);
  } catch (error) {
    const partial = error instanceof BeforeRequest ? null : await partialObject(run, error, inputs, hint);
    if (partial) {
      await commitObject({
        ...run.record(name, partial.id, inputs, { ...partial.outputs }, replacing?.current),
        tainted: true,
      });
    } else if (partial === null) {
      await ctx.ledger.commit((serial) => clearPending(serial, pendingId));
    }
    throw explainRefusal(error instanceof BeforeRequest ? error.cause : error);
  }
  const made = run.record(name, result.id, inputs, result.outputs, replacing?.current);
  const final = commitObject(made);
  if (replacing) await final;
  else await run.last(final);
  return result.id;
}

/**
 * The provider's create; after an unknown outcome, `find` first: the object it made is adopted, a
 * create that surely made nothing is tried again (the HTTP kit never repeats a request that may
 * have acted), and one find cannot tell about fails with its pending record kept.
 */
async function createOrAdopt(run: StepRun, inputs: Record<string, unknown>, hint: Hint): Promise<CreateResult> {
  const { def } = run.w;
  const policy = run.ctx.retry;
  for (let attempt = 1; ; attempt++) {
    if (def.existing) await noteExisting(run, def.existing, inputs, hint);
    try {
      return await run.operate('create', 'create', (octx) => def.create(octx, inputs), {
        operationId: hint.operationId,
      });
    } catch (error) {
      const find = def.find;
      if (!isOutcomeUnknown(error) || !find) throw error;
      const found = await run.operate('find', 'create', (octx) => find(octx, inputs, hint), {
        operationId: hint.operationId,
      });
      if (found && !isCannotTell(found)) return found;
      if (found || attempt > policy.retries || !isTransient(error)) throw error;
      await sleep(backoffFor(policy, attempt), run.ctx.signal);
    }
  }
}

/** A create's hint for `find`, with the evidence noted before the latest request. */
type Hint = { -readonly [K in keyof FindHint]: FindHint[K] };

/** A failure before the create's request was sent (noting the evidence): nothing was made. */
class BeforeRequest extends Error {
  constructor(override readonly cause: unknown) {
    super('failed before the create request was sent');
  }
}

/**
 * Lists the objects matching the create's key and records them in its pending record, durably,
 * before the request is sent: a `find` in any later process then knows which are not this create's.
 */
async function noteExisting(
  run: StepRun,
  existing: NonNullable<AnyResource['existing']>,
  inputs: Record<string, unknown>,
  hint: Hint,
): Promise<void> {
  const ledger = run.ctx.ledger;
  try {
    const ids = await run.operate('read', 'create', async (octx) => [...(await existing(octx, inputs))], {
      operationId: hint.operationId,
    });
    const pending = ledger.getPending(hint.operationId);
    if (pending) {
      const requestAt = new Date(run.ctx.now()).toISOString();
      await ledger.commit((serial) => updatePending(serial, { ...pending, existing: ids, requestAt }));
    }
    hint.existing = ids;
  } catch (error) {
    throw new BeforeRequest(error);
  }
}

/**
 * After a failed create: the object it left, to record as tainted; null when it surely made none
 * (the pending record goes); undefined when nobody can tell (the pending record stays).
 */
async function partialObject(
  run: StepRun,
  error: unknown,
  inputs: Record<string, unknown>,
  hint: FindHint,
): Promise<CreateResult | null | undefined> {
  if (error instanceof PartialCreateError) return { id: error.id, outputs: error.outputs };
  if (isDefinite(error)) return null;
  const find = run.w.def.find;
  if (run.ctx.signal.aborted || !find) return undefined; // the caller stopped: recovery looks next time
  // Lost answer, reset, 5xx, a provider's own failure, or the step's time limit: look, with a
  // signal of its own (the step's may have fired already).
  const own = ownSignal(run.ctx.signal);
  const s = stepSignal(
    own.signal,
    run.address,
    'find',
    Math.min(run.limitOf('create') ?? FIND_AFTER_FAILURE_MS, FIND_AFTER_FAILURE_MS, MAX_TIMER_MS),
  );
  try {
    const found: FindResult = await raceSignal(
      find(run.context('find', s.signal, undefined, hint.operationId), inputs, hint),
      s.signal,
    );
    return isCannotTell(found) ? undefined : found;
  } catch {
    return undefined;
  } finally {
    s.dispose();
    own.dispose();
  }
}

function deposedOf({ current, deposedKey }: Replacing, at: string): DeposedObject {
  return { ...current, deposedKey, deposedAt: at };
}

/** A refusal by the vendor: the request was answered and did nothing. */
function isDefinite(error: unknown): boolean {
  return error instanceof ProviderError && !error.outcomeUnknown && error.status !== undefined;
}

/** The request may have acted although no answer says so. */
function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof ProviderError && error.outcomeUnknown;
}

/** A refused create's error, with how to adopt an object that already exists (same class and facts). */
function explainRefusal(error: unknown): unknown {
  if (
    !(error instanceof ProviderError) ||
    !isDefinite(error) ||
    error.status === undefined ||
    error.status >= 500 ||
    error.status === 429 ||
    !(error.status === 409 || /already exists|already in use|duplicate|taken/i.test(error.detail))
  )
    return error;
  return new ProviderError(
    {
      provider: error.provider,
      operation: error.operation,
      method: error.method,
      pathTemplate: error.pathTemplate,
      status: error.status,
      vendorCode: error.vendorCode,
      requestId: error.requestId,
      retryable: error.retryable,
      outcomeUnknown: false,
      retryAfterSeconds: error.retryAfterSeconds,
      notFound: error.notFound,
      detail: `${error.detail}. Nothing was recorded. If the object already exists outside converge, adopt it with engine.import(decl, id) instead of creating it`,
    },
    { cause: error.cause },
  );
}
