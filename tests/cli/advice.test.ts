// The command renders the library's errors from their facts, with advice in its own terms and
// fitted to the error's class: a refused token says check the token, a conflict says
// `converge import`, a held lock names `converge force-unlock`, a refresh failure `--no-refresh`, a
// mistyped --replace is a bad flag value. No advice naming the library's API reaches the terminal.
import { describe, expect, it } from 'vitest';
import { renderError } from '../../src/cli/advice.js';
import { ConfigError, ProviderError, StateLockedError, ValidationError } from '../../src/index.js';
import { refreshFailure } from '../../src/engine/refresh/read-all.js';
import { converge, simEnv } from './run.js';

const refused = (status: number | undefined, extra: Partial<ConstructorParameters<typeof ProviderError>[0]> = {}) =>
  new ProviderError({
    provider: 'provb',
    operation: 'create instance',
    method: 'POST',
    pathTemplate: '/v2/instances',
    status,
    retryable: false,
    detail:
      'refused. Nothing was recorded. If the object already exists outside converge, adopt it with engine.import(decl, id) instead of creating it',
    ...extra,
  });

const noLibraryWords = (text: string) =>
  expect(text).not.toMatch(/engine\.|lockTimeout|refresh: false|Fix the declarations/);

describe('renderError', () => {
  it('a 401 says to check the token, and says nothing of importing', () => {
    const text = renderError(refused(401));
    expect(text).toMatch(/^provb: create instance failed \(POST \/v2\/instances → 401\): refused\n/);
    expect(text).toContain('check the provb token');
    expect(text).not.toContain('import');
    noLibraryWords(text);
  });

  it('a 404 says something named does not exist', () => {
    const text = renderError(refused(404, { notFound: true }));
    expect(text).toContain('does not exist');
    expect(text).not.toContain('import');
  });

  it('a conflict says converge import', () => {
    const text = renderError(refused(409));
    expect(text).toContain('converge import <name> <id>');
    noLibraryWords(text);
  });

  it('no answer says to check the endpoint', () => {
    expect(renderError(refused(undefined, { detail: 'connection failed: ECONNREFUSED' }))).toContain(
      "No answer came from provb's endpoint",
    );
  });

  it('a held lock names converge force-unlock with the lock id', () => {
    const e = new StateLockedError({ id: 'L1', pid: 7, host: 'h', operation: 'apply', since: 'now' }, 'state.json');
    const text = renderError(e);
    expect(text).toContain('converge force-unlock L1');
    noLibraryWords(text);
  });

  it('a refresh failure suggests --no-refresh', () => {
    const text = renderError(refreshFailure([{ address: 'web', error: new Error('boom') }]));
    expect(text).toContain('--no-refresh');
    noLibraryWords(text);
  });

  it('a mistyped --replace is a bad flag value with the suggestion', () => {
    const e = new ValidationError([
      {
        resource: 'wbe',
        path: ['replace', 0],
        code: 'unknown_name',
        message: "'wbe' names nothing in the stack; did you mean 'web'?",
      },
    ]);
    expect(renderError(e)).toBe("invalid value for --replace: 'wbe' names nothing in the stack; did you mean 'web'?");
  });

  it('a configuration error says where to set it', () => {
    const text = renderError(new ConfigError('provb', 'token', 'is not set (pass token or set PROVB_TOKEN)'));
    expect(text).toMatch(/^provb: token is not set/);
    expect(text).toContain("Set it in the stack module's provider options or in its environment variable.");
    expect(text).not.toContain('Cannot load the stack module');
  });
});

describe('converge at the command line', () => {
  it('reports a mistyped --replace as a bad flag value', async () => {
    const { sim, env } = await simEnv();
    try {
      const r = await converge(['plan', '--replace', 'wbe'], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("invalid value for --replace: 'wbe' names nothing in the stack; did you mean 'web'?");
      expect(r.stderr).not.toContain('Fix the declarations');
    } finally {
      await sim.close();
    }
  }, 60_000);

  it('reports a missing token as the provider option to set, not as a stack module that cannot load', async () => {
    const { sim, env } = await simEnv();
    try {
      const r = await converge(['plan'], { ...env, WF_SIM_TOKEN: '', PROVB_TOKEN: '', PROVB_CREDENTIAL_FILE: '' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/Error: provb: token is not set/);
      expect(r.stderr).toContain("Set it in the stack module's provider options or in its environment variable.");
      expect(r.stderr).not.toContain('Cannot load the stack module');
      noLibraryWords(r.stderr);
    } finally {
      await sim.close();
    }
  }, 60_000);

  it('reports a refused token at plan time with advice to check it, and nothing of importing', async () => {
    const { sim, env } = await simEnv();
    try {
      const r = await converge(['plan'], { ...env, WF_SIM_TOKEN: 'not-the-token' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/→ 401\)/);
      expect(r.stderr).toContain('The credentials were refused: check the provb token or API key');
      expect(r.stderr).not.toContain('import');
      expect(r.stderr).not.toContain('not-the-token');
      expect(r.stdout).not.toMatch(/to add/);
      noLibraryWords(r.stderr);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
