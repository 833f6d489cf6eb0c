// Lineage and serial: which history a state belongs to and how far along it is. A plan remembers
// both; applying it against a state that moved on is refused.
import { randomUUID } from 'node:crypto';

export function newLineage(): string {
  return randomUUID();
}

export type StateVersion = { readonly lineage: string; readonly serial: number };

/** True when a plan made at `plan` may be applied to a state now at `current`. */
export function isCurrent(plan: StateVersion, current: StateVersion): boolean {
  return plan.lineage === current.lineage && plan.serial === current.serial;
}
