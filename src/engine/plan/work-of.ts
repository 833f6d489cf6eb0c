// The work a Plan carries into apply: its own when this engine made it, else the saved plan's steps
// restored against this engine's providers; either way refused when apply's declarations are not
// the ones the plan was made from.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { Provider } from '../provider/define.js';
import type { StepWork, Resolved } from './work.js';
import { planOrigin, planSaved, planWork, type Plan } from './plan.js';
import { declarationPrints, declarationsDigest } from './saved.js';
import { restoreWork } from './saved-work.js';
import { PlanFileError } from './plan-errors.js';

/** The steps to apply; throws PlanFileError ('declarations_mismatch') when the declarations differ. */
export function workOf(
  plan: Plan,
  declarations: readonly ResourceDecl[] | undefined,
  providers: readonly Provider<unknown>[],
  resolve: (token: string, instance?: string) => Resolved | undefined,
): readonly StepWork[] {
  const saved = plan[planSaved];
  const made = plan[planOrigin];
  // Read only when apply is given declarations: a plan this engine made computes its digest on first read.
  const digest = declarations ? (saved?.work.declarations ?? made?.declarations) : undefined;
  if (declarations && digest !== undefined && declarationsDigest(declarations) !== digest) {
    const which = differing(saved ? saved.work.resources : made?.resources, declarations);
    throw new PlanFileError(
      'declarations_mismatch',
      saved?.where ?? 'plan',
      `the declarations given to apply are not the ones the plan was made from${which ? ` (${which})` : ''}`,
    );
  }
  if (!saved) return plan[planWork]!;
  return restoreWork(saved.work.steps, saved.providers, providers, resolve, saved.where);
}

/** Which declarations differ from the plan's, named (at most 5 of each kind), when the plan knows them one by one. */
function differing(
  planned: Readonly<Record<string, string>> | undefined,
  declarations: readonly ResourceDecl[],
): string | undefined {
  if (!planned) return undefined;
  const now = declarationPrints(declarations);
  const names = (list: string[]) =>
    list.slice(0, 5).join(', ') + (list.length > 5 ? `, … ${list.length - 5} more` : '');
  const changed = Object.keys(now).filter((n) => Object.hasOwn(planned, n) && planned[n] !== now[n]);
  const added = Object.keys(now).filter((n) => !Object.hasOwn(planned, n));
  const removed = Object.keys(planned).filter((n) => !Object.hasOwn(now, n));
  const parts = [
    ...(changed.length ? [`changed: ${names(changed)}`] : []),
    ...(added.length ? [`not in the plan: ${names(added)}`] : []),
    ...(removed.length ? [`missing: ${names(removed)}`] : []),
  ];
  return parts.length ? parts.join('; ') : undefined;
}
