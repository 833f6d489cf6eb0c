// Stack outputs and references between stacks (issue 26): outputs declared with the plan, shown as
// Terraform's "Changes to Outputs" (render, JSON, Markdown), recorded by apply with the state
// (secret ones sealed at rest), saved with a plan under its digest, and read by another stack
// through stackRef / stackOutputs: on the file store here, on PostgreSQL in tests/state.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Engine,
  FileStateStore,
  MemoryStateStore,
  Plan,
  PlanFileError,
  ValidationError,
  isSensitive,
  isUnknown,
  ref,
  secret,
  stackOutputs,
  stackRef,
} from 'converge';
import { TestCloud, testProvider } from '../helpers/test-provider.js';
import { thing } from '../helpers/builders.js';
import { expectValidPlanFile } from '../workflow/plan-schema.js';

const PASS = 'outputs test passphrase';

function engineOn(state: FileStateStore | MemoryStateStore, cloud = new TestCloud()) {
  return new Engine({ providers: [testProvider(cloud)], state });
}

describe('stack outputs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-outputs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows added, changed, removed, unknown and sensitive outputs as "Changes to Outputs"', async () => {
    const engine = engineOn(new MemoryStateStore());
    const first = await engine.plan([thing('web')], {
      outputs: {
        address: ref('web', 'address'),
        token: ref('web', 'token'),
        region: 'eu',
        old: 'gone soon',
        password: secret('pw-out-1'),
      },
    });
    const text = first.render({ color: false });
    expect(text).toContain('Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.\n\nChanges to Outputs:');
    expect(text).toContain('  + address  = (known after apply)');
    expect(text).toContain('  + token    = (sensitive value)'); // a reference to a secret output
    expect(text).toContain('  + password = (sensitive value)');
    expect(text).toContain('  + region   = "eu"');
    expect(text).not.toContain('pw-out-1');
    expect(isUnknown(first.outputChanges.find((o) => o.name === 'address')!.after)).toBe(true);
    await engine.apply(first);
    const recorded = (await engine.state()).outputs!;
    expect(recorded.address).toEqual({ name: 'address', value: 'web.example', secret: false });
    expect(recorded.token!.secret).toBe(true);
    expect(recorded.password).toEqual({ name: 'password', value: 'pw-out-1', secret: true });

    const second = await engine.plan([thing('web', { size: 'large' })], {
      outputs: {
        address: ref('web', 'address'),
        token: ref('web', 'token'),
        region: 'us',
        password: secret('pw-out-2'),
        added: 1,
      },
    });
    const actions = Object.fromEntries(second.outputChanges.map((o) => [o.name, o.action]));
    expect(actions).toEqual({
      added: 'create',
      address: 'noop',
      old: 'delete',
      password: 'update',
      region: 'update',
      token: 'noop',
    });
    const out = second.render({ color: false });
    const section = out.slice(out.indexOf('Changes to Outputs:'));
    expect(section.split('\n').slice(0, 5)).toEqual([
      'Changes to Outputs:',
      '  + added    = 1',
      '  - old      = "gone soon" -> null',
      '  ~ password = (sensitive value)',
      '  ~ region   = "eu" -> "us"',
    ]);
    const json = JSON.parse(JSON.stringify(second));
    expect(json.outputChanges.find((o: { name: string }) => o.name === 'password')).toEqual({
      name: 'password',
      action: 'update',
      before: { '@converge': 'sensitive' },
      after: { '@converge': 'sensitive' },
      secret: true,
    });
    expect(JSON.stringify(json)).not.toContain('pw-out');
    const md = second.renderMarkdown();
    expect(md).toContain('#### Changes to Outputs');
    expect(md).toContain('~ region   = "eu" -> "us"');
    expect(md).not.toContain('pw-out');
  });

  it('plans outputs alone as a change that touches no object, and apply records them', async () => {
    const engine = engineOn(new MemoryStateStore());
    await engine.apply(await engine.plan([thing('web')]));
    const plan = await engine.plan([thing('web')], { outputs: { url: ref('web', 'address') } });
    expect(plan.summary.create + plan.summary.update + plan.summary.delete).toBe(0);
    expect(plan.hasChanges).toBe(true);
    const text = plan.render({ color: false });
    expect(text).not.toContain('converge will perform the following actions');
    expect(text).toContain('Changes to Outputs:\n  + url = "web.example"');
    expect(text).toContain('You can apply this plan to save these new output values to the state');
    const before = (await engine.state()).serial;
    await engine.apply(plan);
    const state = await engine.state();
    expect(state.serial).toBe(before + 1);
    expect(state.outputs).toEqual({ url: { name: 'url', value: 'web.example', secret: false } });
    expect((await engine.plan([thing('web')], { outputs: { url: ref('web', 'address') } })).hasChanges).toBe(false);
  });

  it('stackOutputs gives every output name as an own, frozen key (__proto__ and constructor too)', async () => {
    const store = new MemoryStateStore();
    const engine = engineOn(store);
    await engine.apply(
      await engine.plan([thing('web')], {
        // fromEntries: a literal's `__proto__: 'p'` would set no key at all.
        outputs: Object.fromEntries([
          ['__proto__', 'p'],
          ['constructor', ref('web', 'address')],
          ['key', secret('k-7731')],
        ]),
      }),
    );
    const snap = await stackOutputs(store);
    expect(Object.keys(snap.outputs).sort()).toEqual(['__proto__', 'constructor', 'key']);
    expect(Object.getPrototypeOf(snap.outputs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(snap.outputs, '__proto__')).toMatchObject({ value: 'p', enumerable: true });
    expect(snap.outputs.constructor).toBe('web.example');
    expect(
      isSensitive(snap.outputs.key) || (snap.outputs.key as { '@converge'?: string })['@converge'] === 'secret',
    ).toBe(true);
    expect(Object.isFrozen(snap.outputs)).toBe(true);
    expect(() => {
      (snap.outputs as Record<string, unknown>).key = 'x';
    }).toThrow(TypeError);
  });

  it('refuses an output that refers to an undeclared resource, with the other issues', async () => {
    const engine = engineOn(new MemoryStateStore());
    const error = await engine
      .plan([thing('web', { size: 'huge' })], { outputs: { url: ref('db', 'address') } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const messages = (error as ValidationError).issues.map((i) => i.message);
    expect(messages.some((m) => m.includes("output 'url' refers to 'db'"))).toBe(true);
    expect((error as ValidationError).issues.some((i) => i.resource === 'web')).toBe(true);
  });

  it("reads another stack's outputs on the file store: secret ones sealed at rest and redacted in the consumer", async () => {
    const producerPath = join(dir, 'network', 'state.json');
    const producer = new FileStateStore(producerPath, { secretsPassphrase: PASS });
    const net = engineOn(producer);
    await net.apply(
      await net.plan([thing('net')], {
        outputs: { address: ref('net', 'address'), dbPassword: secret('db-secret-7731'), tag: 'blue' },
      }),
    );
    const raw =
      (await readFile(producerPath, 'utf8')) + (await readFile(`${producerPath}.outputs`, 'utf8').catch(() => ''));
    expect(raw).toContain('net.example');
    expect(raw).not.toContain('db-secret-7731');

    // The reader: its own store instance on the producer's files, no lock taken.
    const reader = new FileStateStore(producerPath, { secretsPassphrase: PASS });
    const lock = await producer.lock({ operation: 'apply' });
    const snap = await stackOutputs(reader).finally(() => lock.release());
    expect(snap.stack).toBe(producer.location);
    expect(snap.outputs.address).toBe('net.example');
    expect((snap.outputs.dbPassword as { '@converge': string })['@converge']).toBe('secret'); // secret(value)
    expect((snap.outputs.dbPassword as { value: unknown }).value).toBe('db-secret-7731');

    const consumerPath = join(dir, 'app', 'state.json');
    const app = engineOn(new FileStateStore(consumerPath, { secretsPassphrase: PASS }));
    const decls = [
      thing('app', {
        peer: stackRef<string>(reader, 'address'),
        password: stackRef<string>(reader, 'dbPassword'),
        tags: { color: stackRef<string>(reader, 'tag') },
      }),
    ];
    const plan = await app.plan(decls, { outputs: { upstream: stackRef(reader, 'dbPassword') } });
    const step = plan.steps[0]!;
    expect(step.after).toMatchObject({ peer: 'net.example', tags: { color: 'blue' } });
    expect(isSensitive(step.after!.password)).toBe(true);
    for (const shown of [plan.render({ color: false }), JSON.stringify(plan), plan.renderMarkdown()])
      expect(shown).not.toContain('db-secret-7731');
    expect(plan.render({ color: false })).toContain('+ upstream = (sensitive value)');
    await app.apply(plan);
    const consumerRaw =
      (await readFile(consumerPath, 'utf8')) + (await readFile(`${consumerPath}.outputs`, 'utf8').catch(() => ''));
    expect(consumerRaw).toContain('net.example');
    expect(consumerRaw).not.toContain('db-secret-7731');
    const state = await app.state();
    expect(state.resources.app!.secrets).toContain('inputs.password');
    expect(state.outputs!.upstream).toEqual({ name: 'upstream', value: 'db-secret-7731', secret: true });
  });

  it('reports a missing output as a validation issue naming the stack and the output, with the other issues', async () => {
    const producer = new FileStateStore(join(dir, 'network', 'state.json'));
    const net = engineOn(producer);
    await net.apply(await net.plan([thing('net')], { outputs: { address: ref('net', 'address') } }));
    const cloud = new TestCloud();
    const app = engineOn(new FileStateStore(join(dir, 'app', 'state.json')), cloud);
    const error = await app.plan([thing('app', { peer: stackRef(producer, 'adress'), size: 'huge' })]).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    const missing = issues.find((i) => i.code === 'missing_stack_output')!;
    expect(missing).toMatchObject({ resource: 'app', path: ['peer'] });
    expect(missing.message).toContain(producer.location);
    expect(missing.message).toContain("no output 'adress'");
    expect(missing.message).toContain("'address'");
    expect(issues.some((i) => i.path[0] === 'size')).toBe(true);
    expect(cloud.calls).toEqual([]); // nothing of the consumer was read or changed
    const never = new FileStateStore(join(dir, 'never', 'state.json'));
    const none = await app.plan([thing('app', { peer: stackRef(never, 'x') })]).catch((e) => e);
    expect((none as ValidationError).issues.map((i) => i.code)).toEqual(['missing_stack_output']);
    expect((none as ValidationError).issues[0]!.message).toContain('has no state');
  });

  it('saves the outputs with the plan under its digest and records them when the loaded plan is applied', async () => {
    const store = new MemoryStateStore();
    const engine = engineOn(store);
    const plan = await engine.plan([thing('web')], {
      outputs: { url: ref('web', 'address'), key: secret('saved-secret-55') },
    });
    await expect(plan.serialize()).rejects.toMatchObject({ problem: 'secrets_in_clear' });
    const text = await plan.serialize({ passphrase: PASS });
    expect(text).not.toContain('saved-secret-55');
    expectValidPlanFile(text); // schema/plan.v1.json describes outputChanges
    expectValidPlanFile(await plan.serialize({ allowPlaintextSecrets: true })); // and the work's outputs
    const file = JSON.parse(text);
    expect(file.plan.outputChanges.map((o: { name: string }) => o.name)).toEqual(['key', 'url']);
    const edited = JSON.stringify({
      ...file,
      plan: { ...file.plan, outputChanges: file.plan.outputChanges.slice(1) },
    });
    const refused = await Plan.parse(edited, { passphrase: PASS }).catch((e) => e);
    expect(refused).toBeInstanceOf(PlanFileError);
    expect(refused.problem).toBe('corrupt');
    const loaded = await Plan.parse(text, { passphrase: PASS });
    expect(loaded.outputChanges).toEqual(plan.outputChanges);
    await engine.apply(loaded);
    expect((await store.read()).outputs).toEqual({
      url: { name: 'url', value: 'web.example', secret: false },
      key: { name: 'key', value: 'saved-secret-55', secret: true },
    });
  });

  it('removes every output in a destroy plan', async () => {
    const engine = engineOn(new MemoryStateStore());
    await engine.apply(await engine.plan([thing('web')], { outputs: { url: ref('web', 'address') } }));
    const destroy = await engine.planDestroy();
    expect(destroy.outputChanges).toEqual([
      { name: 'url', action: 'delete', before: 'web.example', after: undefined, secret: false },
    ]);
    await engine.apply(destroy);
    expect((await engine.state()).outputs).toEqual({});
  });
});
