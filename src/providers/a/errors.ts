// LXD's errors as facts: the error envelope of a sync answer, a failed background operation, and
// the refusal of a cluster target on a standalone server.
import { describeBody, type VendorError } from '../../kit/http.js';
import { ProviderError } from '../../engine/errors.js';
import type { Call, Envelope, Operation } from './wire/envelope.js';

const PROVIDER = 'prova';

/**
 * LXD refuses a second operation on an instance while one runs ("Instance is busy running a stop
 * operation", from its operation lock): nothing was done, and the lock clears when the first one
 * ends, so it is a transient the provider waits out, whether it comes as an error answer or as a
 * background operation that failed at once.
 */
export function isBusy(detail: string | undefined): boolean {
  return !!detail && /\binstance is busy running an? /i.test(detail);
}

/**
 * LXD counts an object's users project by project (an ACL's, for one): a project another client
 * deletes between that listing and its loading fails the request, a read as well as a change, with
 * 404 'Failed to load project "p": Project not found' (LXD 5.0.2, seen on ACL reads and updates
 * while projects were being deleted, about one in sixty). The object is there and nothing was
 * changed; the request succeeds once the listing no longer holds the project. A request made in a
 * project that does not exist gets the same words, so the project is returned for the caller to
 * compare with the request's own.
 */
export function vanishedProject(detail: string | undefined): string | undefined {
  return detail ? /\bFailed to load project "([^"]*)": Project not found\b/.exec(detail)?.[1] : undefined;
}

/**
 * The error told for what it is when LXD failed `call` because another project vanished while it
 * counted users (`vanishedProject`, a project other than the call's): not the object's absence (a
 * read must not take a live object for gone, nor a delete for done) but a transient, vendor code
 * `project_vanished`, that the client sends again. Any other error: undefined.
 */
export function projectRace(error: unknown, call: Call): ProviderError | undefined {
  if (!(error instanceof ProviderError) || error.status !== 404) return undefined;
  const gone = vanishedProject(error.detail);
  if (gone === undefined || gone === (call.project ?? 'default')) return undefined;
  return new ProviderError({
    provider: PROVIDER,
    operation: error.operation,
    method: call.method,
    pathTemplate: call.pathTemplate,
    status: 404,
    vendorCode: 'project_vanished',
    retryable: true,
    notFound: false,
    detail: error.detail,
  });
}

/** LXD error envelope → facts. 500s are usually deterministic in LXD (validation), so only 503 retries. */
export function parseLxdError(status: number, body: unknown): VendorError {
  const env = body as Envelope | undefined;
  const detail =
    typeof env === 'object' && env && typeof env.error === 'string' && env.error ? env.error : describeBody(body);
  return {
    detail,
    vendorCode: env?.error_code ? String(env.error_code) : undefined,
    notFound: status === 404,
    retryable: status === 503 || status === 429 || isBusy(detail),
  };
}

/** A sync answer whose envelope says error. */
export function envelopeError(call: Call, status: number, env: Envelope): ProviderError {
  const code = env.error_code ?? status;
  return new ProviderError({
    provider: PROVIDER,
    operation: call.operation,
    method: call.method,
    pathTemplate: call.pathTemplate,
    status: code,
    retryable: code === 503 || isBusy(env.error),
    notFound: code === 404,
    detail: env.error || 'unknown LXD error',
  });
}

/** A background operation that ended in failure; the operation rides along for failedOperation(). */
export function operationError(op: Operation, operation: string): ProviderError {
  const error = new ProviderError({
    provider: PROVIDER,
    operation,
    status: op.status_code,
    retryable: isBusy(op.err),
    vendorCode: op.status,
    detail: op.err || `operation ${op.status}`,
  });
  Object.defineProperty(error, 'lxdOperation', { value: op, enumerable: false });
  return error;
}

/** A call with a cluster `target` to a server that is no cluster. */
export function notClustered(remote: string, call: Call): ProviderError {
  return new ProviderError({
    provider: PROVIDER,
    operation: call.operation,
    method: call.method,
    pathTemplate: call.pathTemplate,
    status: 400,
    retryable: false,
    vendorCode: 'target_not_clustered',
    detail: `Target only allowed when clustered: LXD server ${remote} is not a cluster; remove \`target\` (it names cluster member "${call.target}")`,
  });
}

/** The operation a failed-operation ProviderError came from (exec's `metadata.return`, for one). */
export function failedOperation(error: unknown): Operation | undefined {
  return (error as { lxdOperation?: Operation } | null)?.lxdOperation;
}

/** A ProviderError for an object a handler looked for and did not find (not an HTTP answer): LXD's 404. */
export function missingObject(operation: string, detail: string): ProviderError {
  return new ProviderError({ provider: PROVIDER, operation, status: 404, retryable: false, notFound: true, detail });
}
