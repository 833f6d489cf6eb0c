// Lineage and serial: which history a state belongs to and how far along it is. A plan remembers
// both; applying it against a state that moved on is refused.
import { randomUUID } from 'node:crypto';

export function newLineage(): string {
  return randomUUID();
}
