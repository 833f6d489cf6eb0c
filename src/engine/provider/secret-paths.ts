// The paths a resource definition declares secret, as the state records them ('inputs.x', 'outputs.x').
import type { AnyResource } from './define.js';

/** Each definition's paths, made on first use: a pure function of the definition, asked at every plan of every resource. */
const known = new WeakMap<AnyResource, readonly string[]>();

/** Every path the definition's `secrets` names, under inputs and outputs. */
export function secretPathsOf(def: AnyResource): readonly string[] {
  let out = known.get(def);
  if (!out) {
    const paths: string[] = [];
    for (const s of def.secrets ?? []) paths.push(`inputs.${s}`, `outputs.${s}`);
    out = Object.freeze(paths);
    known.set(def, out);
  }
  return out;
}
