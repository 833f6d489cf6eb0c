// The paths a resource definition declares secret, as the state records them ('inputs.x', 'outputs.x').
import type { AnyResource } from './define.js';

/** Every path the definition's `secrets` names, under inputs and outputs. */
export function secretPathsOf(def: AnyResource): string[] {
  const out: string[] = [];
  for (const s of def.secrets ?? []) out.push(`inputs.${s}`, `outputs.${s}`);
  return out;
}
