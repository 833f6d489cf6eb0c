// The work a Plan carries into apply: its own when this engine made it, else the saved plan's steps
// restored against this engine's providers; either way refused when apply's declarations are not
// the ones the plan was made from.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Provider } from '../provider/define.js';
import type { StepWork, Resolved } from './work.js';
import { planOrigin, planSaved, planWork, type Plan } from './plan.js';
import { declarationsDigest, restoreWork } from './saved.js';
import { PlanFileError } from './plan-errors.js';

/** The steps to apply; throws PlanFileError ('declarations_mismatch') when the declarations differ. */
export function workOf(
  plan: Plan,
  declarations: readonly ResourceDecl[] | undefined,
  providers: readonly Provider<unknown>[],
  resolve: (token: string) => Resolved | undefined,
): readonly StepWork[] {
  const saved = plan[planSaved];
  const made = plan[planOrigin];
  const digest = saved?.work.declarations ?? made?.declarations;
  if (declarations && digest !== undefined && declarationsDigest(declarations) !== digest) {
    throw new PlanFileError(
      'declarations_mismatch',
      saved?.where ?? 'plan',
      'the declarations given to apply are not the ones the plan was made from',
    );
  }
  if (!saved) return plan[planWork]!;
  return restoreWork(saved.work.steps, saved.providers, providers, resolve, saved.where);
}
