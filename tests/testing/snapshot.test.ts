// planSnapshot(): the same text on every run of the same stack (ids, timestamps and UUIDs masked,
// steps sorted by address), and the same matchers and snapshot on a plan made against the Civo
// simulator as on one made with the mocks.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provb } from 'converge/providers/b';
import { startSimulator, type CivoSimulator } from 'converge/providers/b/simulator';
import { convergeMatchers, expectPlan, match, mockProviders, planChange, planSnapshot } from 'converge/testing';
import 'converge/testing/vitest'; // types the matchers on vitest's expect
import { civo, stack } from './stack.js';

expect.extend(convergeMatchers);

const edit = () =>
  planChange(stack({ webs: 2 }).all, stack({ webs: 1, size: 'g3.large' }).all, { providers: mockProviders(civo()) });

describe('planSnapshot', () => {
  it('is the same text on every run, steps sorted by address, ids masked', async () => {
    const [a, b] = [await edit(), await edit()];
    expect(planSnapshot(a)).toBe(planSnapshot(b));
    expect(planSnapshot(a)).toBe(
      [
        'Plan: 0 to add, 1 to change, 0 to replace, 1 to destroy, 0 to forget.',
        '',
        '  # web will be updated in place',
        '  ~ resource "provb:index/instance:Instance" "web" {',
        '        id = "<id of web>"',
        '      ~ size = "g3.medium" -> "g3.large"',
        '',
        '        # (7 unchanged attributes hidden)',
        '    }',
        '',
        '  # web-1 will be destroyed',
        '  # (removed from the stack)',
        '  - resource "provb:index/instance:Instance" "web-1" {',
        '      - id = "<id of web-1>" -> null',
        '      - diskImage = "ubuntu-jammy" -> null',
        '      - firewallId = "<id of fw>" -> null',
        '      - hostname = "web-1" -> null',
        '      - size = "g3.medium" -> null',
        '      - networkId = "<id of net>" -> null',
        '      - publicIpRequired = "create" -> null',
        '      - volumeType = "ssd" -> null',
        '      - writePassword = false -> null',
        '    }',
        '',
        'Unchanged: fw, net',
        '',
      ].join('\n'),
    );
  });

  it('masks timestamps and UUIDs found in values, and shows unknowns in words', async () => {
    const plan = await planChange([], stack().all, { providers: mockProviders(civo()) });
    const text = planSnapshot({
      steps: plan.steps.map((s) =>
        s.address === 'net'
          ? { ...s, after: { ...s.after, label: '2026-11-27T01:02:03.456Z 0b9c6a8e-4a4b-4c1f-9d7e-1c2b3a4d5e6f' } }
          : s,
      ),
    });
    expect(text).toContain('+ label = "<time> <uuid>"');
    expect(text).toContain('+ networkId = (known after apply)');
    expect(text.indexOf('"fw"')).toBeLessThan(text.indexOf('"net"'));
  });

  it('lists policy violations when the plan carries them', () => {
    const text = planSnapshot({
      steps: [],
      violations: [{ policy: 'no-open-ssh', address: 'fw', message: 'SSH open to 0.0.0.0/0', level: 'mandatory' }],
    } as never);
    expect(text).toContain('Violations:\n  [mandatory] no-open-ssh fw: SSH open to 0.0.0.0/0');
  });

  it('serves toMatchSnapshot', async () => {
    expect(planSnapshot(await edit())).toMatchSnapshot();
  });
});

describe('against the Civo simulator', () => {
  let sim: CivoSimulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: 3 });
  });
  afterEach(async () => {
    expect(sim.unmatched).toEqual([]);
    await sim.close();
  });

  it("the same matchers judge a plan made against the simulator, and its snapshot is the mocks'", async () => {
    const real = provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 });
    const base = stack({ webs: 2 }).all;
    const edited = stack({ webs: 1, size: 'g3.large' }).all;
    const plan = await planChange(base, edited, { providers: [real] });
    expect(plan).toUpdate('web', { paths: ['size'], inputs: { networkId: match.anyValue() } });
    expect(plan).toDelete('web-1');
    expect(plan).toChangeOnly(['web', 'web-1']);
    expectPlan(plan).not.toReplace('web');
    expect(sim.store.instances.size).toBe(2); // the plan changed nothing
    expect(planSnapshot(plan)).toBe(planSnapshot(await edit()));
  });

  it("sees drift made in the simulator's store", async () => {
    const real = provb({ token: sim.token, apiEndpoint: sim.url, region: 'LON1', pollIntervalMs: 1 });
    const { all } = stack();
    const plan = await planChange(
      all,
      (s) => {
        for (const i of sim.store.instances.values()) i.hostname = 'renamed';
        return s;
      },
      { providers: [real] },
    );
    expect(plan).toHaveDrift('web', { paths: ['hostname'] });
    expect(plan).toUpdate('web', { paths: ['hostname'] });
  });
});
