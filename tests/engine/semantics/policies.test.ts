// converge's policy semantics as a table (issue 27): one row per rule, each citing what Sentinel,
// Pulumi CrossGuard or OPA/conftest do and whether converge follows them or differs on purpose
// (README, "Policies"). Each row plans and applies a small stack of the test provider and asserts
// the findings, the outcome and the provider calls made.
import { describe, expect, it } from 'vitest';
import {
  ApplyError,
  Engine,
  MemoryStateStore,
  PolicyViolationError,
  isUnknown,
  ref,
  type Policy,
  type PolicyLevel,
  type ResourceDecl,
} from 'converge';
import { TestCloud, testProvider } from '../../helpers/test-provider.js';
import { thing } from '../../helpers/builders.js';

/** A thing's peer must not be 'evil…'; pending while the peer is unknown. */
const noEvilPeer: Policy = {
  name: 'no-evil-peer',
  resource: (step, report) => {
    const peer = step.after?.peer;
    if (isUnknown(peer)) report.pending('peer is known only after apply', { path: 'peer' });
    else if (typeof peer === 'string' && peer.startsWith('evil')) report('evil peer', { path: 'peer' });
  },
};

type Row = {
  readonly name: string;
  readonly cite: string;
  readonly level: PolicyLevel;
  readonly decls: readonly ResourceDecl[];
  /** `address:level` of each violation the plan shows, and the addresses of its pending checks. */
  readonly violations: readonly string[];
  readonly pending: readonly string[];
  /** What apply does: 'applies', 'refused' (PolicyViolationError, nothing changed) or 'step-stopped' (ApplyError). */
  readonly outcome: 'applies' | 'refused' | 'step-stopped';
  /** The creates the provider saw, in order. */
  readonly creates: readonly string[];
};

const rows: Row[] = [
  {
    name: 'a mandatory violation refuses the whole plan before any change',
    cite: "Sentinel hard-mandatory fails the run before apply; CrossGuard 'mandatory' fails `pulumi up` in its preview: same",
    level: 'mandatory',
    decls: [thing('ok'), thing('bad', { peer: 'evil.example' })],
    violations: ['bad:mandatory'],
    pending: [],
    outcome: 'refused',
    creates: [],
  },
  {
    name: 'an advisory violation is shown and the plan applies',
    cite: "Sentinel advisory and CrossGuard 'advisory' log and go on: same",
    level: 'advisory',
    decls: [thing('bad', { peer: 'evil.example' })],
    violations: ['bad:advisory'],
    pending: [],
    outcome: 'applies',
    creates: ['bad'],
  },
  {
    name: 'a value unknown at plan leaves the check pending; at apply it runs on the known value and stops the step',
    cite: "differs on purpose: CrossGuard skips a policy that reads an unknown in preview ('can't run policy during preview', pulumi/pulumi-policy#218) and only meets the value again in the update; OPA/conftest and Sentinel read the plan JSON once (after_unknown) with no second pass; converge records the check as pending in the plan and runs it right before the step",
    level: 'mandatory',
    decls: [thing('evil'), thing('b', { peer: ref('evil', 'address') })],
    violations: [],
    pending: ['b'],
    outcome: 'step-stopped',
    creates: ['evil'],
  },
  {
    name: 'a disabled policy is not evaluated at all',
    cite: "CrossGuard 'disabled' skips the policy: same; the level lives where the policy is used, as Sentinel's enforcement_level lives in the policy set",
    level: 'disabled',
    decls: [thing('bad', { peer: 'evil.example' })],
    violations: [],
    pending: [],
    outcome: 'applies',
    creates: ['bad'],
  },
];

describe('policy semantics', () => {
  for (const row of rows) {
    it(`${row.name} (${row.cite})`, async () => {
      const cloud = new TestCloud();
      const engine = new Engine({
        providers: [testProvider(cloud)],
        state: new MemoryStateStore(),
        retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
        policies: [{ policy: noEvilPeer, level: row.level }],
      });
      const plan = await engine.plan(row.decls);
      expect(plan.violations.map((v) => `${v.address}:${v.level}`)).toEqual(row.violations);
      expect(plan.pendingChecks.map((c) => c.address)).toEqual(row.pending);
      const outcome = await engine.apply(plan).then(
        () => 'applies',
        (e: unknown) =>
          e instanceof PolicyViolationError ? 'refused' : e instanceof ApplyError ? 'step-stopped' : String(e),
      );
      expect(outcome).toBe(row.outcome);
      expect(cloud.calls.filter((c) => c.op === 'create').map((c) => c.name)).toEqual(row.creates);
    });
  }
});
