// Test support: plans built from hand-written steps, so each rendering case is exact.
import { Plan, type Step } from '../../../src/index.js';
import type { StepWork } from '../../../src/engine/plan/work.js';

export function step(fields: Partial<Step> & Pick<Step, 'address' | 'action'>): Step {
  return {
    type: 'test:index/thing:Thing',
    provider: 'test',
    reasons: [],
    cause: 'changed',
    changes: [],
    dependsOn: [],
    ...fields,
  };
}

export function planOf(steps: Step[], warnings: string[] = []): Plan {
  return new Plan({
    work: steps.map((s) => ({ step: s }) as unknown as StepWork),
    warnings,
    lineage: 'lin',
    serial: 1,
    refresh: false,
  });
}
