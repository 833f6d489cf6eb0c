import { describe, expect, it } from 'vitest';
import { ref, sensitive, unknown } from '../../../src/index.js';
import { renderPlan, summaryLine } from '../../../src/engine/plan/render.js';
import { setup, thing } from '../../helpers/builders.js';
import { planOf, step } from './steps.js';

const plain = { color: false } as const;

describe('renderPlan through the engine', () => {
  it('shows a create with nested maps and lists, secrets as (sensitive value) and references as (known after apply)', async () => {
    const { engine } = setup();
    const plan = await engine.plan([
      thing('a', { password: 'hunter2', tags: { env: 'prod', 'cost.centre': 'r&d' }, ports: [80, 443] }),
      thing('b', { peer: ref('a', 'address') }),
    ]);
    expect(plan.render(plain)).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # a will be created
        + resource "test:index/thing:Thing" "a" {
            + name = "a"
            + size = "small"
            + region = "eu"
            + password = (sensitive value)
            + tags = {
                + env = "prod"
                + "cost.centre" = "r&d"
              }
            + ports = [
                + 80,
                + 443,
              ]
          }

        # b will be created
        + resource "test:index/thing:Thing" "b" {
            + name = "b"
            + size = "small"
            + region = "eu"
            + tags = {}
            + peer = (known after apply)
            + ports = []
          }

      Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy."
    `);
  });

  it('diffs maps key by key and lists element by element, hiding what did not change', async () => {
    const { engine } = setup();
    await engine.apply(
      await engine.plan([thing('a', { tags: { env: 'prod', team: 'web', old: 'x' }, ports: [80, 443, 8080] })]),
    );
    const plan = await engine.plan([
      thing('a', { tags: { env: 'dev', team: 'web', added: 'y' }, ports: [80, 8443, 8080, 9000] }),
    ]);
    expect(plan.render(plain)).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # a will be updated in place
        ~ resource "test:index/thing:Thing" "a" {
              id = "thing-1"
            ~ tags = {
                ~ env = "prod" -> "dev"
                + added = "y"
                - old = "x" -> null
                  # (1 unchanged attribute hidden)
              }
            ~ ports = [
                ~ 443 -> 8443,
                + 9000,
                  # (2 unchanged elements hidden)
              ]

              # (3 unchanged attributes hidden)
          }

      Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy."
    `);
  });

  it('marks the exact attribute that forces a replacement, and secrets changing without their values', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a', { password: 'old-secret', size: 'small' })]));
    const plan = await engine.plan([thing('a', { password: 'new-secret', size: 'large', region: 'us' })]);
    const text = plan.render(plain);
    expect(text).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # a must be replaced
        # (destroy, then create)
      -/+ resource "test:index/thing:Thing" "a" {
            ~ id = "thing-1" -> (known after apply)
            ~ size = "small" -> "large"
            ~ region = "eu" -> "us" # forces replacement
            ~ password = (sensitive value)

              # (3 unchanged attributes hidden)
          }

      Plan: 0 to add, 0 to change, 1 to replace, 0 to destroy."
    `);
    expect(text).not.toMatch(/old-secret|new-secret/);
  });

  it('explains deletions: removed from the stack, or forgotten with retainOnDelete', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('gone'), thing('kept', {}, { retainOnDelete: true })]));
    const plan = await engine.plan([]);
    expect(plan.render(plain)).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # gone will be destroyed
        # (removed from the stack)
        - resource "test:index/thing:Thing" "gone" {
            - id = "thing-1" -> null
            - name = "gone" -> null
            - size = "small" -> null
            - region = "eu" -> null
            - tags = {} -> null
            - ports = [] -> null
          }

        # kept will be forgotten
        # (forgotten, retainOnDelete)
        . resource "test:index/thing:Thing" "kept" {
              id = "thing-2"
              # (5 attributes kept as they are)
          }

      Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy, 1 to forget."
    `);
  });

  it('says there is nothing to do when the plan has no changes', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const plan = await engine.plan([thing('a')]);
    expect(plan.render(plain)).toBe('No changes. Your infrastructure matches the configuration.');
  });

  it('shows a renamed resource as moved, with no changes', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('old')]));
    const plan = await engine.plan([{ ...thing('new'), inputs: { name: 'old' }, options: { aliases: ['old'] } }]);
    expect(plan.render(plain)).toContain('# old has moved to new');
  });
});

describe('renderPlan of hand-made steps', () => {
  it('puts "# forces replacement" on the nested element that forces it, not on its parents', () => {
    const before = {
      rules: [
        { port: 80, cidr: '0.0.0.0/0' },
        { port: 22, cidr: '10.0.0.0/8' },
      ],
      name: 'fw',
    };
    const after = {
      rules: [
        { port: 80, cidr: '0.0.0.0/0' },
        { port: 2222, cidr: '10.0.0.0/8' },
      ],
      name: 'fw',
    };
    const plan = planOf([
      step({
        address: 'fw',
        action: 'replace',
        cause: 'replace_forced',
        reasons: ['rules[1].port'],
        id: 'fw-1',
        before,
        after,
        createBeforeDestroy: true,
        changes: [{ path: 'rules[1].port', before: 22, after: 2222, forcesReplacement: true }],
      }),
    ]);
    const text = renderPlan(plan, plain);
    expect(text).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # fw must be replaced
        # (create before destroy)
      +/- resource "test:index/thing:Thing" "fw" {
            ~ id = "fw-1" -> (known after apply)
            ~ rules = [
                ~ {
                    ~ port = 22 -> 2222 # forces replacement
                      # (1 unchanged attribute hidden)
                  },
                  # (1 unchanged element hidden)
              ]

              # (1 unchanged attribute hidden)
          }

      Plan: 0 to add, 0 to change, 1 to replace, 0 to destroy."
    `);
    expect(text.split('\n').filter((l) => l.includes('# forces replacement'))).toEqual([
      '              ~ port = 22 -> 2222 # forces replacement',
    ]);
  });

  it('folds long single-line strings, keeping both ends and the length', () => {
    const cert = `MII${'A'.repeat(400)}END==`;
    const plan = planOf([step({ address: 'c', action: 'create', cause: 'new', after: { body: cert } })]);
    const line = renderPlan(plan, { ...plain, width: 60 })
      .split('\n')
      .find((l) => l.includes('body'))!;
    expect(line).toBe(`      + body = "MII${'A'.repeat(17)}…${'A'.repeat(11)}END==" (408 characters)`);
  });

  it('shows multi-line strings as heredocs, folded past maxLines', () => {
    const script = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const plan = planOf([step({ address: 's', action: 'create', cause: 'new', after: { script } })]);
    const text = renderPlan(plan, { ...plain, maxLines: 8 });
    expect(text).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # s will be created
        + resource "test:index/thing:Thing" "s" {
            + script = <<-EOT
                  line 1
                  line 2
                  line 3
                  line 4
                  # (26 more lines hidden)
              EOT
          }

      Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy."
    `);
  });

  it('diffs two heredocs line by line, hiding unchanged lines far from a change', () => {
    const old = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    const now = [...old];
    now[5] = 'line six, changed';
    const plan = planOf([
      step({
        address: 's',
        action: 'update',
        id: 's-1',
        before: { script: old.join('\n') },
        after: { script: now.join('\n') },
        changes: [{ path: 'script', before: old.join('\n'), after: now.join('\n'), forcesReplacement: false }],
      }),
    ]);
    expect(renderPlan(plan, plain)).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # s will be updated in place
        ~ resource "test:index/thing:Thing" "s" {
              id = "s-1"
            ~ script = <<-EOT
                  # (3 unchanged lines hidden)
                  line 4
                  line 5
                - line 6
                + line six, changed
                  line 7
                  line 8
                  # (4 unchanged lines hidden)
              EOT
          }

      Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy."
    `);
  });

  it('writes the words for unknown and sensitive markers wherever they stand', () => {
    const plan = planOf([
      step({
        address: 'x',
        action: 'update',
        id: 'x-1',
        before: { env: { A: '1', KEY: sensitive }, ip: '198.18.0.5' },
        after: { env: { A: '2', KEY: sensitive }, ip: unknown },
        changes: [
          { path: 'env.A', before: '1', after: '2', forcesReplacement: false },
          { path: 'env.KEY', before: sensitive, after: sensitive, forcesReplacement: false },
          { path: 'ip', before: '198.18.0.5', after: unknown, forcesReplacement: false },
        ],
      }),
    ]);
    const text = renderPlan(plan, plain);
    expect(text).toContain('~ KEY = (sensitive value)\n');
    expect(text).toContain('~ ip = "198.18.0.5" -> (known after apply)');
  });

  it('explains objects deleted outside converge: created again when declared, forgotten when not', () => {
    const plan = planOf([
      step({ address: 'web', action: 'create', cause: 'gone', after: { name: 'web' } }),
      step({ address: 'old', action: 'forget', cause: 'gone', id: 'old-1', before: { name: 'old' } }),
    ]);
    const text = renderPlan(plan, plain);
    expect(text).toContain('  # web was deleted outside converge and will be created again\n  + resource');
    expect(text).toContain(
      '  # old was deleted outside converge\n  # (forgotten: it is no longer in the stack)\n  . resource',
    );
    expect(text).toContain('Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy, 1 to forget.');
  });

  it('shows a changed nested value that became unknown, and a value whose type changed', () => {
    const plan = planOf([
      step({
        address: 'x',
        action: 'update',
        id: 'x-1',
        before: { tags: ['a', 'b'], limit: '10' },
        after: { tags: unknown, limit: { cpu: 2 } },
        changes: [
          { path: 'tags', before: ['a', 'b'], after: unknown, forcesReplacement: false },
          { path: 'limit', before: '10', after: { cpu: 2 }, forcesReplacement: false },
        ],
      }),
    ]);
    expect(renderPlan(plan, plain)).toMatchInlineSnapshot(`
      "converge will perform the following actions:

        # x will be updated in place
        ~ resource "test:index/thing:Thing" "x" {
              id = "x-1"
            ~ tags = [
                - "a",
                - "b",
              ] -> (known after apply)
            ~ limit = "10" -> {
                + cpu = 2
              }
          }

      Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy."
    `);
  });

  const summary = { create: 3, read: 0, update: 1, stateOnly: 0, replace: 1, delete: 0, noop: 4, forget: 0 };
  it.each([
    [{}, 'Plan: 3 to add, 1 to change, 1 to replace, 0 to destroy.'],
    [{ forget: 2 }, 'Plan: 3 to add, 1 to change, 1 to replace, 0 to destroy, 2 to forget.'],
    [{ read: 2, forget: 1 }, 'Plan: 3 to add, 1 to change, 1 to replace, 0 to destroy, 2 to read, 1 to forget.'],
    [{ stateOnly: 2 }, 'Plan: 3 to add, 1 to change, 1 to replace, 0 to destroy; 2 to change in the state only.'],
    [
      { update: 0, stateOnly: 1, forget: 1 },
      'Plan: 3 to add, 0 to change, 1 to replace, 0 to destroy, 1 to forget; 1 to change in the state only.',
    ],
  ])('prints the summary line with every count (%j)', (counts, line) => {
    expect(summaryLine({ summary: { ...summary, ...counts } })).toBe(line);
  });

  it('colours symbols only when asked, and never by default off a TTY', () => {
    const plan = planOf([step({ address: 'a', action: 'create', cause: 'new', after: { name: 'a' } })]);
    expect(renderPlan(plan, { color: true })).toContain('\x1b[32m');
    const before = process.stdout.isTTY;
    try {
      Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
      expect(renderPlan(plan)).not.toContain('\x1b[');
      Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
      expect(renderPlan(plan)).toContain('\x1b[32m');
    } finally {
      Object.defineProperty(process.stdout, 'isTTY', { value: before, configurable: true });
    }
  });

  it('lists the plan warnings after the summary', () => {
    const plan = planOf(
      [step({ address: 'a', action: 'create', cause: 'new', after: { name: 'a' } })],
      ['a: size medium is deprecated'],
    );
    expect(renderPlan(plan, plain).split('\n').slice(-2)).toEqual(['Warnings:', '  - a: size medium is deprecated']);
  });
});
