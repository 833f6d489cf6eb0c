// The command's words for the library's errors: each error is rendered from its facts (class, code,
// status, issues), and the advice is the command's own — `converge import`, `--no-refresh`,
// `converge force-unlock`, a bad flag value — fitted to the error's class: an auth failure says check
// the token, a conflict says import, a transient failure says try again. The library's own advice
// (which names API calls such as engine.import()) never reaches the terminal.
import type { ConfigError, ProviderError, ValidationError } from '../engine/errors.js';
import type { StateLockedError } from '../state/errors.js';
import type { Issue } from '../engine/issue.js';

/** Plan options and the flags that set them. */
const FLAGS: Readonly<Record<string, string>> = { targets: '--target', exclude: '--exclude', replace: '--replace' };

/** The text `converge` prints for `error` after "Error: ". */
export function renderError(error: unknown): string {
  // By code, not class: the stack module may load its own copy of the library.
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'CONVERGE_VALIDATION') return validation((error as ValidationError).issues);
  if (code === 'CONVERGE_STATE_LOCKED') {
    const e = error as StateLockedError;
    return (
      `${firstLine(e.message)}\nWait for that ${e.operation} to finish and run the command again; if its process is gone, ` +
      `release the lock with:\n  converge force-unlock ${e.lockId}`
    );
  }
  if (code === 'CONVERGE_PROVIDER') return provider(error as ProviderError);
  if (code === 'CONVERGE_CONFIG')
    return `${(error as ConfigError).message}\nSet it in the stack module's provider options or in its environment variable.`;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'CONVERGE_REFRESH')
    return `${firstLine(message)}\nNothing was planned. Run the command again, or plan from the state as it is with --no-refresh.`;
  return message.replace(/engine\.import\((decl, id)?\)/g, 'converge import <name> <id>');
}

function validation(issues: readonly Issue[]): string {
  const flags = issues.filter((i) => FLAGS[String(i.path[0])] && i.code !== 'invalid_type');
  if (flags.length === issues.length) {
    return flags
      .map(
        (i) =>
          `invalid value for ${FLAGS[String(i.path[0])]}: ${i.message.replace(/^'[^']*' names/, `'${i.resource}' names`)}`,
      )
      .join('\n');
  }
  return (
    `${issues.length} invalid input${issues.length === 1 ? '' : 's'}; nothing was changed:\n` +
    issues.map((i) => `  ${issueLine(i)}`).join('\n') +
    '\nFix the stack module and run the command again.'
  );
}

function issueLine(i: Issue): string {
  const flag = FLAGS[String(i.path[0])];
  if (flag && (!i.resource || i.code === 'unknown_name')) return `${flag}: ${i.message}`;
  return `${i.resource}.${i.path.map(String).join('.')}: ${i.message}`.replace(/^\./, '');
}

/** A provider's failure: its facts, then the advice its class calls for. */
function provider(e: ProviderError): string {
  const where = e.method ? ` (${e.method} ${e.pathTemplate ?? ''}${e.status ? ` → ${e.status}` : ''})` : '';
  const detail = ownDetail(e);
  const facts = `${e.provider}: ${e.operation} failed${where}: ${detail}${e.vendorCode ? ` [${e.vendorCode}]` : ''}${e.requestId ? ` request ${e.requestId}` : ''}`;
  return `${facts}\n${adviceFor(e)}`;
}

/** The vendor's explanation without the library's advice that a refused create may carry. */
function ownDetail(e: ProviderError): string {
  return e.detail.replace(/\. Nothing was recorded\. If the object already exists outside converge.*$/s, '');
}

function adviceFor(e: ProviderError): string {
  if (e.status === 401 || e.status === 403)
    return `The credentials were refused: check the ${e.provider} token or API key the stack module gives (or its environment variable).`;
  if (e.status === 409 || /already exists|already in use|duplicate|taken/i.test(ownDetail(e)))
    return 'If the object already exists outside converge, adopt it with:\n  converge import <name> <id>';
  if (e.notFound)
    return 'The object, or one it names (a region, an image, a network), does not exist: check the names and ids in the stack module.';
  if (e.status === undefined)
    return `No answer came from ${e.provider}'s endpoint: check its address and that it is running, then run the command again.`;
  if (e.retryable) return 'The failure looks transient; it was retried. Run the command again later.';
  return 'Fix what the provider refused and run the command again.';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
