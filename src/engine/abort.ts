// Why an AbortSignal fired, typed. `AbortSignal.reason` is `any`; everything that waits rejects
// with it, so the one cast lives here.

/**
 * The reason `signal` was aborted, to reject or throw with: a `DOMException` named `AbortError`
 * when aborted without one, a `TimeoutError` when a step's limit fired, or whatever value a caller
 * passed to `abort()`, unchanged (it is the caller's to recognise, so it is not wrapped).
 */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason as Error;
}
