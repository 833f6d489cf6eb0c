// Simulated catalogue reads, databases (Pending → Ready), account-global DNS and SSH keys; the list
// of this family adds the object stores and credentials (routes-object-stores.ts).
import { objectStoreRoutes } from './routes-object-stores.js';
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, page, success } from './answers.js';
import { databaseVersions, diskImages, regions, sizes } from './catalogue.js';
import { route } from './endpoint.js';
import { chooseFirewall, releaseFirewall } from './firewall-rule.js';
import { quota } from './quota.js';

const RECORD_TYPES = ['A', 'CNAME', 'MX', 'SRV', 'TXT', 'NS'];

function catalogueRoutes(): Route<SimStore>[] {
  return [
    route('GET', '/v2/regions', () => ok(regions)),
    route('GET', '/v2/sizes', () => ok(sizes)),
    route('GET', '/v2/disk_images', () => ok(diskImages)),
    route('GET', '/v2/disk_images/:id', (q) => {
      const i = diskImages.find((x) => x.id === q.params.id);
      return i ? ok(i) : missing('database_disk_image_not_found', 'disk image');
    }),
    route('GET', '/v2/volumetypes', () =>
      ok([
        { name: 'ssd', description: 'SSD', enabled: true, labels: [] },
        { name: 'bssd', description: 'Block SSD', enabled: true, labels: [] },
      ]),
    ),
    route('GET', '/v2/ping', () => ok({ result: 'pong' })),
    route('GET', '/v2/quota', (_q, s) => ok(quota(s))),
    route('GET', '/v2/databases/versions', () => ok(databaseVersions)),
  ];
}

function databaseRoutes(): Route<SimStore>[] {
  const none = () => missing('database_service_not_found', 'database');
  return [
    route('GET', '/v2/databases', (q, s, r) => page(q, s.inRegion(s.databases, r))),
    route('GET', '/v2/databases/:id', (q, s, r) => {
      const d = byId(s.databases, q.params.id!, r);
      return d ? ok(d) : none();
    }),
    route('POST', '/v2/databases', (q, s, r) => {
      const b = bodyOf(q);
      if (!given(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if (s.inRegion(s.databases, r).some((d) => d.name === b.name))
        return fail('parameter_name_invalid', `A database named ${b.name} already exists`);
      if (!sizes.some((x) => x.name === b.size && x.type === 'Database'))
        return fail('database_size_not_found', 'Failed to find the size within the internal database', 400);
      const engine = Object.keys(databaseVersions).find((e) => e === String(b.software ?? '').toLowerCase());
      if (!engine) return fail('database_service_not_found', `Unknown database engine ${b.software}`, 400);
      if (!databaseVersions[engine]!.some((v) => v.software_version === String(b.software_version)))
        return fail('database_service_not_found', `Unknown ${engine} version ${b.software_version}`, 400);
      const net = given(b.network_id) ? byId(s.networks, b.network_id, r) : s.defaultNetwork(r);
      if (!net) return missing('database_network_not_found', 'network');
      const port = engine === 'mysql' ? 3306 : 5432;
      const id = s.id();
      const choice = chooseFirewall(s, r, net, b.firewall_id, b.firewall_rule, String(port), { id, name: b.name });
      if ('error' in choice) return choice.error;
      const fw = choice.firewall;
      const username = engine === 'mysql' ? 'root' : 'postgres';
      const password = s.secret(12);
      const d: Wire = {
        id,
        name: b.name,
        nodes: Number(b.nodes) || 1,
        size: b.size,
        software: engine,
        software_version: String(b.software_version),
        public_ipv4: s.address('public'),
        private_ipv4: s.address('private'),
        network_id: net.id,
        firewall_id: fw.id,
        port,
        username,
        password,
        database_user_info: [{ username, password, port }],
        dns_entry: '',
        status: 'Pending',
        region: r,
      };
      d.dns_entry = `${d.id}.db.civo.com`;
      s.databases.set(d.id, d);
      s.schedule(s.timings.database, () => {
        if (d.status === 'Pending') d.status = 'Ready';
      });
      return ok(d);
    }),
    route('PUT', '/v2/databases/:id', (q, s, r) => {
      const d = byId(s.databases, q.params.id!, r);
      if (!d) return none();
      const b = bodyOf(q);
      if (given(b.name)) d.name = b.name;
      if (Number(b.nodes) > 0) d.nodes = Number(b.nodes);
      if (given(b.firewall_id)) {
        const fw = byId(s.firewalls, b.firewall_id, r);
        if (!fw) return missing('database_firewall_not_found', 'firewall');
        if (fw.network_id !== d.network_id)
          return fail('database_firewall_mismatch', `firewall ${fw.id} is not part of network ${d.network_id}`);
        d.firewall_id = fw.id;
      }
      return ok(d);
    }),
    route('DELETE', '/v2/databases/:id', (q, s, r) => {
      if (!(byId(s.databases, q.params.id!, r) && s.databases.delete(q.params.id!))) return none();
      releaseFirewall(s, q.params.id!);
      return success();
    }),
    // Restore from a backup: the database goes back to Pending, then Ready.
    route('POST', '/v2/databases/:id/restore', (q, s, r) => {
      const d = byId(s.databases, q.params.id!, r);
      if (!d) return none();
      const b = bodyOf(q);
      if (!given(b.backup)) return fail('parameter_value_missing', 'The name of the backup to restore is missing');
      d.status = 'Pending';
      s.schedule(s.timings.database, () => {
        if (d.status === 'Pending') d.status = 'Ready';
      });
      return success();
    }),
  ];
}

function recordFrom(b: Wire, prior: Wire | undefined): Wire | ReturnType<typeof fail> {
  const type = String(given(b.type) ?? prior?.type ?? '').toUpperCase();
  if (!RECORD_TYPES.includes(type)) return fail('parameter_dns_record_type', 'The DNS record type is invalid');
  const name = String(given(b.name) ?? prior?.name ?? '@');
  if (type === 'CNAME' && name === '@')
    return fail('parameter_dns_record_cname_apex', 'A CNAME record cannot be set at the apex (@)');
  const value = given<string>(b.value) ?? prior?.value;
  if (!value) return fail('parameter_value_missing', 'The value is missing');
  const ttl = Number(given(b.ttl)) || 600;
  const priority = type === 'MX' ? Number(given(b.priority)) || 10 : Number(given(b.priority)) || 0;
  return { type, name, value, ttl, priority };
}

function dnsRoutes(): Route<SimStore>[] {
  const noDomain = () => missing('database_dns_domain_not_found', 'DNS domain');
  const noRecord = () => missing('database_dns_record_not_found', 'DNS record');
  return [
    route('GET', '/v2/dns', (_q, s) => ok([...s.domains.values()])),
    route('GET', '/v2/dns/:id', (q, s) => {
      const d = s.domains.get(q.params.id!);
      return d ? ok(d) : noDomain();
    }),
    route('POST', '/v2/dns', (q, s) => {
      const name = given<string>(bodyOf(q).name);
      if (!name || /\s/.test(name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if ([...s.domains.values()].some((d) => d.name === name))
        return fail('database_dns_domain_duplicate_name', `A domain named ${name} already exists`);
      const d = { id: s.id(), account_id: s.accountId, name };
      s.domains.set(d.id, d);
      return ok(d);
    }),
    route('PUT', '/v2/dns/:id', (q, s) => {
      const d = s.domains.get(q.params.id!);
      if (!d) return noDomain();
      const name = given<string>(bodyOf(q).name);
      if (name) d.name = name;
      return ok(d);
    }),
    route('DELETE', '/v2/dns/:id', (q, s) => {
      if (!s.domains.delete(q.params.id!)) return noDomain();
      for (const r of [...s.records.values()]) if (r.domain_id === q.params.id) s.records.delete(r.id);
      return success();
    }),
    route('GET', '/v2/dns/:id/records', (q, s) =>
      s.domains.has(q.params.id!) ? ok([...s.records.values()].filter((r) => r.domain_id === q.params.id)) : noDomain(),
    ),
    route('GET', '/v2/dns/:id/records/:rid', (q, s) => {
      const r = s.records.get(q.params.rid!);
      return r && r.domain_id === q.params.id ? ok(r) : noRecord();
    }),
    route('POST', '/v2/dns/:id/records', (q, s) => {
      if (!s.domains.has(q.params.id!)) return noDomain();
      const fields = recordFrom(bodyOf(q), undefined);
      if ('status' in fields) return fields as ReturnType<typeof fail>;
      const now = s.now();
      const rec = {
        id: s.id(),
        account_id: s.accountId,
        domain_id: q.params.id,
        ...fields,
        created_at: now,
        updated_at: now,
      };
      s.records.set(rec.id, rec);
      return ok(rec);
    }),
    route('PUT', '/v2/dns/:id/records/:rid', (q, s) => {
      const rec = s.records.get(q.params.rid!);
      if (!rec || rec.domain_id !== q.params.id) return noRecord();
      const fields = recordFrom(bodyOf(q), rec);
      if ('status' in fields) return fields as ReturnType<typeof fail>;
      Object.assign(rec, fields, { updated_at: s.now() });
      return ok(rec);
    }),
    route('DELETE', '/v2/dns/:id/records/:rid', (q, s) => {
      const rec = s.records.get(q.params.rid!);
      if (!rec || rec.domain_id !== q.params.id) return noRecord();
      s.records.delete(rec.id);
      return success();
    }),
  ];
}

function sshKeyRoutes(): Route<SimStore>[] {
  const none = () => missing('database_ssh_key_not_found', 'SSH key');
  return [
    route('GET', '/v2/sshkeys', (_q, s) => ok([...s.sshkeys.values()])),
    route('GET', '/v2/sshkeys/:id', (q, s) => {
      const k = s.sshkeys.get(q.params.id!);
      return k ? ok(k) : none();
    }),
    route('POST', '/v2/sshkeys', (q, s) => {
      const b = bodyOf(q);
      if (!given(b.name) || /\s/.test(b.name)) return fail('parameter_name_invalid', 'The name supplied was empty');
      if (!given(b.public_key) || !/^(ssh-|ecdsa-)/.test(b.public_key))
        return fail('parameter_public_key_empty', 'The public key is empty or invalid');
      if ([...s.sshkeys.values()].some((k) => k.name === b.name))
        return fail('database_ssh_key_duplicate_name', `An SSH key named ${b.name} already exists`);
      const k = {
        id: s.id(),
        name: b.name,
        fingerprint: s.fingerprint(b.public_key),
        public_key: b.public_key,
        created_at: s.now(),
      };
      s.sshkeys.set(k.id, k);
      return success({ id: k.id });
    }),
    route('PUT', '/v2/sshkeys/:id', (q, s) => {
      const k = s.sshkeys.get(q.params.id!);
      if (!k) return none();
      const name = given<string>(bodyOf(q).name);
      if (name) k.name = name;
      return ok(k);
    }),
    route('DELETE', '/v2/sshkeys/:id', (q, s) => (s.sshkeys.delete(q.params.id!) ? success() : none())),
  ];
}

export function dataRoutes(): Route<SimStore>[] {
  return [...catalogueRoutes(), ...databaseRoutes(), ...dnsRoutes(), ...sshKeyRoutes(), ...objectStoreRoutes()];
}
