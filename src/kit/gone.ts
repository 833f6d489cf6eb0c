// How every provider reads "the object is not there": a ProviderError whose vendor answer meant not
// found (each client's error parser sets `notFound`). Reads turn it into null, deletes into done.
import { ProviderError } from '../engine/errors.js';

/** True when `error` is the vendor saying the object does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ProviderError && error.notFound;
}

/** `run()`, or null when the vendor answers not found: a read of a vanished object. */
export async function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** `run()`, where an object that is already gone counts as done: a delete, retried or raced. */
export async function ignoreGone(run: () => Promise<unknown>): Promise<void> {
  await orNull(run);
}
