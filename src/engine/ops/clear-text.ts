// Which secret values a plan's steps will write: the secret input paths that hold a value in a step
// that records its inputs (create, update, replace). A secret path with no value (an optional
// password left out, an output the provider is told not to return) writes nothing, so it gives no
// warning that secrets are stored in clear.
import type { StepWork } from '../plan/work.js';

/** 'web.inputs.password' for each secret input of a recording step that holds a value. */
export function secretsWritten(work: readonly StepWork[]): string[] {
  const out: string[] = [];
  for (const w of work) {
    const action = w.step.action;
    if (action !== 'create' && action !== 'update' && action !== 'replace') continue;
    const known = w as { readonly inputs?: unknown; readonly decl?: { readonly inputs?: unknown } };
    const inputs = known.inputs ?? known.decl?.inputs;
    for (const path of w.secrets) {
      if (!path.startsWith('inputs.')) continue;
      if (holdsValue(inputs, path.slice('inputs.'.length).split('.'))) out.push(`${w.step.address}.${path}`);
    }
  }
  return out;
}

/** True when some value at `path` ('*' for any key or index) is set and not empty. */
function holdsValue(value: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return value !== undefined && value !== null && value !== '';
  if (value === null || typeof value !== 'object') return false;
  const [head, ...rest] = path;
  if (head === '*') return Object.values(value).some((v) => holdsValue(v, rest));
  return holdsValue((value as Record<string, unknown>)[head!], rest);
}
