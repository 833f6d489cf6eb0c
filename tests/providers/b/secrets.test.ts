import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/engine/errors.js';
import { created, harness } from './harness.js';

describe('provb secrets', () => {
  it('marks the secret outputs of every resource that has one', async () => {
    const h = await harness();
    expect(h.res('instance:Instance').secrets).toContain('initialPassword');
    expect(h.res('kubernetesCluster:KubernetesCluster').secrets).toContain('kubeconfig');
    expect(h.res('database:Database').secrets).toContain('password');
    expect(h.res('objectStoreCredential:ObjectStoreCredential').secrets).toContain('secretAccessKey');
  });

  it('never puts a token, password, kubeconfig or secret key in a ProviderError', async () => {
    const h = await harness({}, { token: 'sim-token' });
    const fw = [...h.sim.store.firewalls.values()].find((f) => f.default && f.region === 'LON1')!;
    const inst = await created(h, 'instance:Instance', {
      diskImage: 'ubuntu-jammy',
      firewallId: fw.id,
      hostname: 'sec',
      writePassword: true,
    });
    const db = await created(h, 'database:Database', {
      name: 'secdb',
      engine: 'postgresql',
      version: '14',
      size: 'g3.db.small',
      nodes: 1,
    });
    const k8s = await created(h, 'kubernetesCluster:KubernetesCluster', {
      name: 'seck',
      firewallId: fw.id,
      pools: { nodeCount: 1, size: 'g4s.kube.small' },
      writeKubeconfig: true,
    });
    const cred = await created(h, 'objectStoreCredential:ObjectStoreCredential', { name: 'seccred' });
    const secrets = [
      h.sim.token,
      inst.outputs.initialPassword,
      db.outputs.password,
      k8s.outputs.kubeconfig,
      cred.outputs.secretAccessKey,
    ] as string[];
    expect(secrets.every((s) => typeof s === 'string' && s.length > 4)).toBe(true);

    // The API now fails every call with bodies that echo the secrets back.
    const echo = {
      password: db.outputs.password,
      kubeconfig: k8s.outputs.kubeconfig,
      secret_access_key_id: cred.outputs.secretAccessKey,
      initial_password: inst.outputs.initialPassword,
    };
    h.sim.use(
      {
        method: 'GET',
        path: '/v2/instances/:id',
        handler: () => ({ status: 400, body: { ...echo, note: `token ${h.sim.token}` } }),
      },
      {
        method: 'GET',
        path: '/v2/databases/:id',
        handler: () => ({
          status: 400,
          body: { code: 'bad_thing', reason: `refused for token ${h.sim.token}`, ...echo },
        }),
      },
      {
        method: 'GET',
        path: '/v2/kubernetes/clusters/:id',
        handler: () => ({ status: 500, raw: `upstream said bearer ${h.sim.token}` }),
      },
      {
        method: 'GET',
        path: '/v2/objectstore/credentials/:id',
        handler: () => ({ status: 403, body: { result: 'denied', ...echo } }),
      },
    );
    const errors: unknown[] = [];
    for (const c of [inst, db, k8s, cred])
      errors.push(
        await c.def
          .read(h.ctx({ retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 } }), c.id, c.prior)
          .catch((e) => e),
      );
    h.sim.resetHandlers();
    h.sim.setFaults({ rate: 1, kinds: ['500'] });
    errors.push(
      await db.def.update!(h.ctx({ retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 } }), db.id, db.prior, {
        ...db.inputs,
        nodes: 2,
      }).catch((e) => e),
    );
    h.sim.setFaults(undefined);

    expect(errors).toHaveLength(5);
    for (const e of errors) {
      expect(e).toBeInstanceOf(ProviderError);
      const text = `${(e as Error).message} ${JSON.stringify(e)} ${(e as ProviderError).detail}`;
      for (const s of secrets) expect(text).not.toContain(s);
    }
  });
});
