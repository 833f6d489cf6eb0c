// A request repeated after its first answer was lost (a dropped connection) can be refused because
// the first one worked: "already attached", "not attached". Those refusals mean success.
import { ProviderError } from '../../../engine/errors.js';

/** Swallows a vendor error with `code`; rethrows anything else. */
export function tolerate(error: unknown, code: string): void {
  if (!(error instanceof ProviderError && error.vendorCode === code)) throw error;
}
