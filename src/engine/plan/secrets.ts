// Secret paths as a resource's record keeps them: 'inputs.x' and 'outputs.x' for each path the
// resource's definition marks secret.
import type { AnyResource } from '../provider/define.js';

/** Secret paths of a resource, as stored: 'inputs.x' and 'outputs.x' for each schema secret. */
export function secretPathsOf(def: AnyResource): string[] {
  const out: string[] = [];
  for (const s of def.secrets ?? []) out.push(`inputs.${s}`, `outputs.${s}`);
  return out;
}

/** The paths under `prefix` ('inputs.'), with the prefix taken off. */
export function strip(prefix: string, paths: readonly string[]): string[] {
  return paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
}
