// A plan as a deterministic text for snapshot tests: the summary, the drift, every changed step as
// render() draws it (sorted by address), the unchanged ones by name, warnings and policy violations;
// ids, timestamps and UUIDs masked, so a snapshot holds only what the stack decides.
import type { Step } from '../engine/plan/step.js';
import { driftLines, renderStepText } from '../engine/plan/render.js';
import { summaryKey } from '../engine/plan/view.js';
import type { PlanLike } from './expectation.js';

/** A policy violation as a plan may carry it (`plan.violations`), read without depending on its type. */
type ViolationLike = {
  readonly policy?: string;
  readonly address?: string;
  readonly message?: string;
  readonly level?: string;
};

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

const byAddress = (a: Step, b: Step): number =>
  a.address < b.address ? -1 : a.address > b.address ? 1 : (a.deposedKey ?? '') < (b.deposedKey ?? '') ? -1 : 1;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The plan as a text that is the same on every run of the same stack: for `toMatchSnapshot()` or
 * `toMatchFileSnapshot()`. Steps sorted by address; each object's id shown as `<id of ADDRESS>`,
 * timestamps as `<time>`, other UUIDs as `<uuid>`, values known only after apply as
 * `(known after apply)`; secrets as `(sensitive value)`, as render() shows them.
 *
 * @example
 * ```ts
 * import { expect, it } from 'vitest';
 * import { provb } from 'converge/providers/b';
 * import { mockProviders, planStack, planSnapshot } from 'converge/testing';
 *
 * it('plans the network', async () => {
 *   const mocks = mockProviders(provb({ token: 'unused', region: 'LON1' }));
 *   const plan = await planStack([provb.network('net', { label: 'app' })], { providers: mocks });
 *   expect(planSnapshot(plan)).toMatchSnapshot();
 * });
 * ```
 */
export function planSnapshot(plan: PlanLike): string {
  if (!plan || !Array.isArray(plan.steps))
    throw new TypeError('Expected a plan (what engine.plan(), planStack() or planChange() returns)');
  const steps = [...plan.steps].sort(byAddress);
  const changed = steps.filter((s) => s.action !== 'noop' || s.movedFrom !== undefined);
  const unchanged = steps.filter((s) => !changed.includes(s));
  // The plan's own counts (view.ts), a state-only update shown as a change; a deferred lookup is a read, not an add.
  const counts = { create: 0, read: 0, update: 0, replace: 0, delete: 0, forget: 0 } as Record<string, number>;
  for (const s of changed) {
    const key = summaryKey(s) === 'stateOnly' ? 'update' : summaryKey(s);
    if (key in counts) counts[key]!++; // a no-op shown for its rename is counted nowhere
  }
  const read = counts.read ? `, ${counts.read} to read` : '';
  const out: string[] = [
    `Plan: ${counts.create} to add, ${counts.update} to change, ${counts.replace} to replace, ${counts.delete} to destroy${read}, ${counts.forget} to forget.`,
  ];
  const drift = [...(plan.drift ?? [])].sort((a, b) => (a.address < b.address ? -1 : 1));
  if (drift.length) out.push('', 'Drift:', ...drift.flatMap((d) => driftLines(d)));
  for (const s of changed) out.push('', renderStepText(s));
  if (unchanged.length) out.push('', `Unchanged: ${unchanged.map((s) => s.address).join(', ')}`);
  const warnings = (plan as { warnings?: readonly string[] }).warnings ?? [];
  if (warnings.length) out.push('', 'Warnings:', ...[...warnings].sort().map((w) => `  - ${w}`));
  const violations = (plan as { violations?: readonly ViolationLike[] }).violations ?? [];
  if (violations.length)
    out.push(
      '',
      'Violations:',
      ...violations.map((v) => `  [${v.level ?? ''}] ${v.policy ?? ''} ${v.address ?? ''}: ${v.message ?? ''}`).sort(),
    );
  let text = out.join('\n');
  // Longest ids first, so an id inside another (a composite `domain:record`) is not cut.
  const ids = new Map<string, string>();
  for (const s of steps) if (s.id) ids.set(s.id, s.address);
  for (const d of drift) ids.set(d.id, d.address);
  for (const [id, address] of [...ids].sort((a, b) => b[0].length - a[0].length))
    if (id.length >= 3)
      text = text.replace(new RegExp(`(?<![\\w-])${escape(id)}(?![\\w-])`, 'g'), `<id of ${address}>`);
  return `${text.replace(ISO_TIME, '<time>').replace(UUID, '<uuid>')}\n`;
}
