// Every endpoint of the Civo client, called once against the simulator through the harness (which
// parses each answer with the endpoint's schema, src/providers/b/wire/answers.ts): a lifecycle of each
// object the provider manages, so no endpoint's answer goes unchecked.
import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';
import { answers } from '../../../src/providers/b/wire/answers.js';
import type { CivoClient } from '../../../src/providers/b/client.js';
import { manualClock } from '../../../src/kit/sim/clock.js';

const r = 'LON1';
const publicKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKwire test@example';

const clock = manualClock();

/** Polls `get` until `done` holds, moving the simulator's clock past its transitions between polls. */
async function until<T>(get: () => Promise<T>, done: (t: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const t = await get();
    if (done(t)) return t;
    clock.advance(10);
  }
  throw new Error('never settled');
}

describe('provb wire', () => {
  it('every endpoint answers the shape its schema describes', async () => {
    const h = await harness({ clock });
    const called = new Set<string>();
    const client = h.provider.config.client;
    // Counts the endpoints called (the harness already checks their answers).
    const c = new Proxy(client, {
      get: (target, key, receiver) => {
        const v = Reflect.get(target, key, receiver) as unknown;
        if (typeof key === 'string' && key in answers) called.add(key);
        return v;
      },
    }) as CivoClient;
    const x = h.ctx();

    // Catalogue
    const images = await c.diskImages(x, r);
    await c.regions(x);
    await c.sizes(x);
    await c.kubernetesVersions(x);
    await c.databaseVersions(x);

    // Network, subnets, firewall and rules
    const net = await c.createNetwork(x, r, { label: 'wire-net' });
    await c.getNetwork(x, r, net.id);
    await c.updateNetwork(x, r, net.id, { label: 'wire-net-2' });
    expect((await c.listNetworks(x, r)).map((n) => n.label)).toContain('wire-net-2');
    await c.listSubnets(x, r, net.id);
    const fw = await c.createFirewall(x, r, { name: 'wire-fw', network_id: net.id, create_default_rules: false });
    await c.renameFirewall(x, r, fw.id, 'wire-fw-2');
    expect((await c.listFirewalls(x, r)).find((f) => f.id === fw.id)?.name).toBe('wire-fw-2');
    const rule = await c.createFirewallRule(x, r, fw.id, {
      protocol: 'tcp',
      start_port: '22',
      cidr: ['0.0.0.0/0'],
      direction: 'ingress',
      action: 'allow',
    });
    expect((await c.listFirewallRules(x, r, fw.id)).map((f) => f.id)).toContain(rule.id);
    await c.deleteFirewallRule(x, r, fw.id, rule.id);

    // SSH key and instance
    const key = await c.createSshKey(x, 'wire-key', publicKey);
    await c.renameSshKey(x, key.id, 'wire-key-2');
    expect((await c.listSshKeys(x)).map((k) => k.name)).toContain('wire-key-2');
    const made = await c.createInstance(x, r, {
      hostname: 'wire-1',
      size: 'g3.xsmall',
      template_id: images[0]!.id,
      network_id: net.id,
      firewall_id: fw.id,
      ssh_key_id: key.id,
    });
    const inst = await until(
      () => c.getInstance(x, r, made.id),
      (i) => i.status === 'ACTIVE',
    );
    expect((await c.listInstances(x, r)).map((i) => i.id)).toContain(inst.id);
    await c.updateInstance(x, r, inst.id, { hostname: 'wire-1', notes: 'checked' });
    await c.retagInstance(x, r, inst.id, ['a', 'b']);
    await c.setInstanceFirewall(x, r, inst.id, fw.id);
    await c.resizeInstance(x, r, inst.id, 'g3.small');
    await until(
      () => c.getInstance(x, r, inst.id),
      (i) => i.status === 'ACTIVE',
    );

    // Volume
    const vol = await c.createVolume(x, r, { name: 'wire-vol', size_gb: 5, network_id: net.id });
    await until(
      () => c.getVolume(x, r, vol.id),
      (v) => v.status === 'available',
    );
    await c.resizeVolume(x, r, vol.id, 10);
    await c.attachVolume(x, r, vol.id, inst.id, false);
    await until(
      () => c.getVolume(x, r, vol.id),
      (v) => v.instance_id === inst.id && v.status === 'attached',
    );
    expect((await c.listVolumes(x, r)).find((v) => v.id === vol.id)?.instance_id).toBe(inst.id);
    await c.detachVolume(x, r, vol.id);
    await until(
      () => c.getVolume(x, r, vol.id),
      (v) => !v.instance_id && v.status === 'available',
    );
    await c.deleteVolume(x, r, vol.id);

    // Reserved IP
    const ip = await c.createIp(x, r, 'wire-ip');
    await c.renameIp(x, r, ip.id, 'wire-ip-2');
    await until(
      () => c.getIp(x, r, ip.id),
      (i) => !!i.ip,
    );
    expect((await c.listIps(x, r)).map((i) => i.name)).toContain('wire-ip-2');
    await c.ipAction(x, r, ip.id, 'assign', inst.id);
    await c.ipAction(x, r, ip.id, 'unassign', inst.id);
    await c.deleteIp(x, r, ip.id);

    // Load balancer
    const lb = await c.createLoadBalancer(x, r, {
      name: 'wire-lb',
      network_id: net.id,
      algorithm: 'round_robin',
      backends: [{ ip: '192.168.1.9', protocol: 'TCP', source_port: 80, target_port: 8080 }],
    });
    await c.getLoadBalancer(x, r, lb.id);
    await c.updateLoadBalancer(x, r, lb.id, { name: 'wire-lb-2' });
    expect((await c.listLoadBalancers(x, r)).map((l) => l.name)).toContain('wire-lb-2');
    await c.deleteLoadBalancer(x, r, lb.id);

    // Kubernetes cluster and pools
    const cluster = await c.createCluster(x, r, {
      name: 'wire-k8s',
      network_id: net.id,
      pools: [{ id: 'wire-p1', size: 'g4s.kube.xsmall', count: 1 }],
    });
    await until(
      () => c.getCluster(x, r, cluster.id),
      (k) => k.status === 'ACTIVE',
    );
    await c.updateCluster(x, r, cluster.id, { name: 'wire-k8s-2' });
    expect((await c.listClusters(x, r)).map((k) => k.name)).toContain('wire-k8s-2');
    await c.createPool(x, r, cluster.id, { id: 'wire-p2', size: 'g4s.kube.xsmall', count: 1 });
    await c.getPool(x, r, cluster.id, 'wire-p2');
    await c.updatePool(x, r, cluster.id, 'wire-p2', { count: 2 });
    await c.deletePool(x, r, cluster.id, 'wire-p2');
    await c.deleteCluster(x, r, cluster.id);

    // Database
    const db = await c.createDatabase(x, r, {
      name: 'wire-db',
      size: 'g3.db.small',
      software: 'postgresql',
      software_version: '14',
      nodes: 1,
      network_id: net.id,
    });
    await c.getDatabase(x, r, db.id);
    await c.updateDatabase(x, r, db.id, { name: 'wire-db-2' });
    expect((await c.listDatabases(x, r)).map((d) => d.name)).toContain('wire-db-2');
    await c.deleteDatabase(x, r, db.id);

    // DNS
    const domain = await c.createDomain(x, 'wire.example');
    await c.renameDomain(x, domain.id, 'wire2.example');
    expect((await c.listDomains(x)).map((d) => d.name)).toContain('wire2.example');
    const rec = await c.createRecord(x, domain.id, { type: 'A', name: 'www', value: '198.18.0.9', ttl: 600 });
    await c.updateRecord(x, domain.id, rec.id, { type: 'A', name: 'www', value: '198.18.0.10', ttl: 600 });
    expect((await c.listRecords(x, domain.id)).map((d) => d.value)).toContain('198.18.0.10');
    await c.deleteRecord(x, domain.id, rec.id);
    await c.deleteDomain(x, domain.id);

    // Object store and credential
    const cred = await c.createCredential(x, r, { name: 'wire-cred' });
    await c.getCredential(x, r, cred.id);
    await c.updateCredential(x, r, cred.id, { name: 'wire-cred' });
    expect((await c.listCredentials(x, r)).map((k) => k.id)).toContain(cred.id);
    const bucket = await c.createObjectStore(x, r, {
      name: 'wire-bucket',
      max_size_gb: 500,
      access_key_id: cred.access_key_id,
    });
    await c.getObjectStore(x, r, bucket.id);
    await c.resizeObjectStore(x, r, bucket.id, 1000);
    expect((await c.listObjectStores(x, r)).find((o) => o.id === bucket.id)?.max_size).toBe(1000);
    await c.deleteObjectStore(x, r, bucket.id);
    await c.deleteCredential(x, r, cred.id);

    // What remains
    await c.deleteInstance(x, r, inst.id);
    await c.deleteSshKey(x, key.id);
    await until(
      () => c.listInstances(x, r),
      (all) => !all.some((i) => i.id === inst.id),
    );
    await c.deleteFirewall(x, r, fw.id);
    await c.deleteNetwork(x, r, net.id);

    expect([...called].sort()).toEqual(Object.keys(answers).sort());
  });
});
