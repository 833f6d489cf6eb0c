// The "Policy checks" section of a rendered plan (text and Markdown): every violation, mandatory
// first, then every check left pending for apply, and what apply will make of them. Nothing when
// no policy found anything.
import type { PolicyFindings, PolicyViolation, PendingCheck } from '../violation.js';

const where = (f: PolicyViolation | PendingCheck) => `${f.address || '(stack)'}${f.path ? `.${f.path}` : ''}`;

/** Violations in the order they are shown: mandatory first, then by address. */
function ordered(violations: readonly PolicyViolation[]): PolicyViolation[] {
  const rank = (v: PolicyViolation) => (v.level === 'mandatory' ? 0 : 1);
  return [...violations].sort(
    (a, b) => rank(a) - rank(b) || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
  );
}

/** What apply will do, in one sentence. */
function verdict(f: PolicyFindings): string {
  const mandatory = f.violations.filter((v) => v.level === 'mandatory').length;
  const pending = f.pendingChecks.length;
  const parts: string[] = [];
  if (mandatory)
    parts.push(`${mandatory} mandatory polic${mandatory === 1 ? 'y' : 'ies'} failed: apply will refuse this plan.`);
  else if (f.violations.length) parts.push('Advisory findings only: apply will go ahead.');
  if (pending)
    parts.push(
      `${pending} check${pending === 1 ? '' : 's'} wait${pending === 1 ? 's' : ''} for values known only after apply: each runs again before its step, and a mandatory failure then stops that step.`,
    );
  return parts.join(' ');
}

/** The section as text lines (render()); empty when there is nothing to show. */
export function policyLines(f: PolicyFindings): string[] {
  if (!f.violations.length && !f.pendingChecks.length) return [];
  const out = ['Policy checks:'];
  for (const v of ordered(f.violations)) out.push(`  [${v.level}] ${v.policy}: ${where(v)}: ${v.message}`);
  for (const c of f.pendingChecks) out.push(`  [pending, ${c.level}] ${c.policy}: ${where(c)}: ${c.reason}`);
  out.push('', verdict(f));
  return out;
}

const cell = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|');

/** The section as Markdown (renderMarkdown()): a table and the verdict; empty when there is nothing to show. */
export function policyMarkdown(f: PolicyFindings): string[] {
  if (!f.violations.length && !f.pendingChecks.length) return [];
  const out = ['#### Policy checks', '', '| level | policy | resource | finding |', '| --- | --- | --- | --- |'];
  for (const v of ordered(f.violations))
    out.push(
      `| ${v.level === 'mandatory' ? '**mandatory**' : 'advisory'} | ${cell(v.policy)} | \`${cell(where(v))}\` | ${cell(v.message)} |`,
    );
  for (const c of f.pendingChecks)
    out.push(`| pending (${c.level}) | ${cell(c.policy)} | \`${cell(where(c))}\` | ${cell(c.reason)} |`);
  out.push('', verdict(f), '');
  return out;
}
