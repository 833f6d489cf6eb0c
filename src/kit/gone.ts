// How every provider reads "the object is not there": a ProviderError whose vendor answer meant not
// found (each client's error parser sets `notFound`). Reads turn it into null. A delete answered
// not found is done, and that is absorbed in one layer only: the engine's delete step
// (engine/apply/steps/delete.ts), so a provider's delete just throws what its vendor says.
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
