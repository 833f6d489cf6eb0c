// What every lookup of provider A shares: the remote and project arguments, the check of the remote,
// and the not-found error.
import { z } from 'zod';
import { LookupError } from '../../../engine/errors.js';
import { scopeIssues } from '../resources/checks.js';
import type { ProvaConfig } from '../config.js';

export const remote = z
  .string()
  .optional()
  .describe("Name of the remote to read from; when omitted, the provider's default remote is used.");
/** Every lookup: an unknown `remote` is an error before any request. */
export const check = (a: { remote?: string }, config: ProvaConfig) => scopeIssues({ remote: a.remote }, config);
export const project = z
  .string()
  .optional()
  .describe("Project to look in; when omitted, the remote's `default` project is used.");

export function notFound(token: string, criteria: string): LookupError {
  return new LookupError(token, 'not_found', [], criteria);
}
