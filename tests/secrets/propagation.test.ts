// Issue 13, one behaviour per test: secret() and references carry secrecy to where values land; the
// apply result and ApplyError hold markers only; providers and plans print safely; the clear-text
// warning comes first.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApplyError,
  Engine,
  FileStateStore,
  ValidationError,
  MemoryStateStore,
  ProviderError,
  defineProvider,
  defineResource,
  ref,
  secret,
  sensitive,
  type Event,
  type ResourceDecl,
} from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';
import { blob, setup, thing } from '../helpers/builders.js';
import { TestCloud, testProvider } from '../helpers/test-provider.js';

const MARK = { '@converge': 'sensitive' };

describe('secret()', () => {
  it('marks the path it stands at secret in the plan, and unwraps the value for the provider', async () => {
    const { engine, cloud } = setup();
    const plan = await engine.plan([thing('a', { tags: { 'api.key': secret('s3cr3t-tag-value') } })]);
    const change = plan.steps[0]!.changes.find((c) => c.path === 'tags')!;
    expect(change.after).toEqual({ 'api.key': MARK });
    expect(JSON.stringify(plan)).not.toContain('s3cr3t-tag-value');
    expect(plan.render({ color: false })).not.toContain('s3cr3t-tag-value');
    await engine.apply(plan);
    expect([...cloud.objects.values()][0]!.inputs.tags).toEqual({ 'api.key': 's3cr3t-tag-value' });
  });

  it('records the path in the state record’s secrets, with keys holding dots quoted', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a', { tags: { 'api.key': secret('s3cr3t-tag-value') } })]));
    expect((await engine.state()).resources.a!.secrets).toContain('inputs.tags["api.key"]');
  });

  it('is not quoted by a ValidationError or warning whose check echoes the value it refuses', async () => {
    const picky = defineProvider({
      name: 'picky',
      resources: [
        defineResource({
          token: 'picky:index/thing:Thing',
          inputs: z.object({ code: z.string() }),
          outputs: z.object({}),
          check: (i) => [{ path: ['code'], message: `'${i.code}' is not a valid code` }],
          warnings: (i) => [`code ${i.code} looks odd`],
          create: async () => ({ id: 'x', outputs: {} }),
          read: async () => null,
          delete: async () => {},
        }),
      ],
    });
    const engine = new Engine({ providers: [picky], state: new MemoryStateStore() });
    const error = await engine
      .plan([{ type: 'picky:index/thing:Thing', name: 'p', inputs: { code: secret('c0de-s3cr3t') } }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ resource: 'p', path: ['code'] });
    expect(`${(error as Error).message} ${JSON.stringify(error)} ${inspect(error, { depth: null })}`).not.toContain(
      'c0de-s3cr3t',
    );
  });

  it('wrapping an existing value in secret() records the resource again with the path secret, nothing else', async () => {
    const { engine, cloud } = setup();
    await engine.apply(await engine.plan([thing('a', { tags: { k: 'was-plain-value' } })]));
    const plan = await engine.plan([thing('a', { tags: { k: secret('was-plain-value') } })]);
    expect(plan.steps[0]).toMatchObject({ action: 'update', cause: 'options_changed' });
    expect(plan.steps[0]!.changes.map((c) => c.path)).toEqual(['secrets']);
    const calls = cloud.calls.length;
    await engine.apply(plan);
    expect(cloud.calls.length).toBe(calls);
    expect((await engine.state()).resources.a!.secrets).toContain('inputs.tags.k');
    expect((await engine.plan([thing('a', { tags: { k: secret('was-plain-value') } })])).hasChanges).toBe(false);
  });

  it('prints as a marker under util.inspect', () => {
    expect(inspect({ x: secret('s3cr3t-inspect') }, { depth: null })).not.toContain('s3cr3t-inspect');
  });
});

describe('secrets follow references', () => {
  it('a reference to a secret output makes the destination secret in the plan (known values) and in the state', async () => {
    const { engine } = setup();
    await engine.apply(await engine.plan([thing('a')]));
    const token = (await engine.state()).resources.a!.outputs.token as string;
    const plan = await engine.plan([thing('a'), blob('b', { content: ref('a', 'token') })]);
    const step = plan.steps.find((s) => s.address === 'b')!;
    expect(step.changes.find((c) => c.path === 'content')!.after).toEqual(MARK);
    expect(JSON.stringify(plan)).not.toContain(token);
    await engine.apply(plan);
    expect((await engine.state()).resources.b!.secrets).toContain('inputs.content');
  });

  it('a reference resolved only at apply (the source is created in the same apply) is recorded secret', async () => {
    const { engine } = setup();
    const result = await engine.apply(await engine.plan([thing('a'), blob('b', { content: ref('a', 'token') })]));
    expect((await engine.state()).resources.b!.secrets).toContain('inputs.content');
    expect(result.state.resources.b!.inputs.content).toEqual(MARK);
  });

  it('a reference to a secret() input is secret onward, through a chain of references', async () => {
    const { engine } = setup();
    const decls: ResourceDecl[] = [
      thing('a', { peer: secret('peer-s3cr3t') }),
      thing('c', { peer: ref('a', 'peer') }),
      blob('b', { content: ref('c', 'peer') }),
    ];
    const plan = await engine.plan(decls);
    expect(JSON.stringify(plan)).not.toContain('peer-s3cr3t');
    await engine.apply(plan);
    const state = await engine.state();
    expect(state.resources.c!.secrets).toContain('inputs.peer');
    expect(state.resources.b!.secrets).toContain('inputs.content');
  });

  it('a reference to a plain output stays plain', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a'), blob('b', { content: ref('a', 'name') })]);
    expect(plan.steps.find((s) => s.address === 'b')!.changes.find((c) => c.path === 'content')!.after).toBe('a');
  });
});

describe('the apply result', () => {
  it('holds secrets only as markers, and result.secret() reads one on purpose', async () => {
    const { engine } = setup();
    const result = await engine.apply(await engine.plan([thing('a', { password: 'pw-s3cr3t-1234' })]));
    const token = result.secret('a', 'token') as string;
    expect(token).toMatch(/^tok-/);
    expect(result.secret('a', 'password')).toBe('pw-s3cr3t-1234');
    for (const text of [
      JSON.stringify(result),
      inspect(result, { depth: null }),
      inspect(result, { depth: null, showHidden: true }),
    ]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain('pw-s3cr3t-1234');
    }
    expect(result.state.resources.a!.outputs.token).toEqual(MARK);
    expect(Object.keys(result)).not.toContain('secret');
  });

  it('answers undefined for a resource or path that is not there', async () => {
    const { engine } = setup();
    const result = await engine.apply(await engine.plan([thing('a')]));
    expect(result.secret('nope', 'token')).toBeUndefined();
    expect(result.secret('a', 'nope')).toBeUndefined();
  });
});

describe('ApplyError', () => {
  // A provider whose vendor echoes the request body in its error, as Gcore does.
  const echo = defineProvider({
    name: 'echo',
    resources: [
      defineResource({
        token: 'echo:index/thing:Thing',
        inputs: z.object({ name: z.string(), key: z.string(), note: z.string().optional() }),
        outputs: z.object({}),
        secrets: ['key'],
        create: async (ctx, inputs) => {
          throw new ProviderError({
            provider: 'echo',
            operation: 'create thing',
            method: 'POST',
            pathTemplate: '/things',
            status: 400,
            retryable: false,
            outcomeUnknown: false,
            detail: `rejected ${JSON.stringify(inputs)}`,
          });
        },
        read: async () => null,
        delete: async () => {},
      }),
    ],
  });

  it('keeps the error class and facts and holds no secret input, schema-marked or secret()', async () => {
    const engine = new Engine({ providers: [echo], state: new MemoryStateStore() });
    const events: Event[] = [];
    const plan = await engine.plan([
      {
        type: 'echo:index/thing:Thing',
        name: 'x',
        inputs: { name: 'x', key: 'k3y-s3cr3t-value', note: secret('n0te-s3cr3t-value') },
      },
    ]);
    const error = await engine.apply(plan, { onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyError);
    const failed = (error as ApplyError).result.failed[0]!.error;
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as ProviderError).status).toBe(400);
    const texts = [
      JSON.stringify(error),
      inspect(error, { depth: null, showHidden: true }),
      (error as Error).stack ?? '',
      JSON.stringify(events),
      failed.message,
      (failed as ProviderError).detail,
    ];
    for (const t of texts) {
      expect(t).not.toContain('k3y-s3cr3t-value');
      expect(t).not.toContain('n0te-s3cr3t-value');
    }
  });
});

describe('printing plans and providers', () => {
  it('util.inspect(plan, {depth: null}) shows no secret input and no provider internals', async () => {
    const { engine } = setup();
    const plan = await engine.plan([thing('a', { password: 'pw-inspect-s3cr3t' })]);
    const text = inspect(plan, { depth: null, showHidden: true });
    expect(text).not.toContain('pw-inspect-s3cr3t');
    expect(text).not.toContain('planWork');
    expect(text).toContain('summary');
  });

  it('every provider gives terraformConfig() its secret keys with the sensitive marker', () => {
    const a = prova({
      socketPath: '/nonexistent.sock',
      configDir: '/nonexistent',
      remotes: [{ name: 'r', address: '127.0.0.1:1', password: 'remote-pw-s3cr3t' }],
    });
    const b = provb({ token: 'civo-tok-s3cr3t', apiEndpoint: 'http://127.0.0.1:1' });
    const c = provc({ apiKey: '123$gcore-key-s3cr3t', baseUrl: 'http://127.0.0.1:1', env: {} });
    expect((a.terraformConfig().remote as Record<string, unknown>[])[0]!.password).toEqual(sensitive);
    expect(b.terraformConfig().token).toEqual(sensitive);
    expect(c.terraformConfig().api_key).toEqual(sensitive);
  });

  it('JSON.stringify and util.inspect of a provider show no credential', async () => {
    const a = prova({
      socketPath: '/nonexistent.sock',
      configDir: '/nonexistent',
      remotes: [{ name: 'r', address: '127.0.0.1:1', password: 'remote-pw-s3cr3t' }],
    });
    const b = provb({ token: 'civo-tok-s3cr3t', apiEndpoint: 'http://127.0.0.1:1' });
    const c = provc({ apiKey: '123$gcore-key-s3cr3t', baseUrl: 'http://127.0.0.1:1', env: {} });
    try {
      for (const p of [a, b, c]) {
        const text = `${JSON.stringify(p)} ${inspect(p, { depth: null })} ${inspect(p, { depth: null, showHidden: true })}`;
        for (const s of ['remote-pw-s3cr3t', 'civo-tok-s3cr3t', 'gcore-key-s3cr3t']) expect(text).not.toContain(s);
        expect(JSON.parse(JSON.stringify(p)).name).toBe(p.name);
      }
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('the clear-text warning', () => {
  const tmp = () => mkdtempSync(join(tmpdir(), 'cvt-secrets-warn-'));

  it('is in the first plan’s warnings when a store without passphrase would record a secret', async () => {
    const dir = tmp();
    try {
      const store = new FileStateStore(join(dir, 'state.json'), { secretsPassphrase: undefined });
      const { engine } = setupWith(store);
      const plan = await engine.plan([thing('a', { password: 'pw-warn' })]);
      expect(plan.warnings).toContain(store.secretsWarning(['a.inputs.password']));
      expect(plan.warnings.find((w) => w.includes('stored in clear'))).toContain('a.inputs.password');
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is said once, before anything is written: by the plan, and apply does not repeat it', async () => {
    const dir = tmp();
    try {
      const store = new FileStateStore(join(dir, 'state.json'));
      const { engine } = setupWith(store);
      const plan = await engine.plan([thing('a', { password: 'pw-warn' })], { refresh: false });
      const seen: { type: string; message?: string; written: boolean }[] = [];
      await engine.apply(plan, {
        onEvent: (e) =>
          seen.push({
            type: e.type,
            message: (e as { message?: string }).message,
            written: existsSync(store.path) || existsSync(store.journalPath),
          }),
      });
      const warning = store.secretsWarning(['a.inputs.password']);
      expect(plan.warnings).toContain(warning);
      expect(seen.filter((e) => e.type === 'warning' && e.message === warning)).toEqual([]);
      expect(existsSync(store.path)).toBe(true);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is absent with a passphrase, and when nothing secret is recorded', async () => {
    const dir = tmp();
    try {
      const locked = new FileStateStore(join(dir, 'a.json'), { secretsPassphrase: 'a passphrase' });
      const plain = new FileStateStore(join(dir, 'b.json'));
      expect(locked.secretsWarning()).toBeUndefined();
      expect(
        (await setupWith(locked).engine.plan([thing('a', { password: 'pw' })])).warnings.filter((w) =>
          w.includes(locked.location),
        ),
      ).toEqual([]);
      expect((await setupWith(plain).engine.plan([blob('b', { content: 'plain' })])).warnings).not.toContain(
        plain.secretsWarning(),
      );
      await locked.close();
      await plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function setupWith(store: FileStateStore) {
  return { engine: new Engine({ providers: [testProvider(new TestCloud())], state: store }) };
}
