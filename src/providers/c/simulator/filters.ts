// List filters of the read-only Cloud collections, as the wire notes describe them: bare metal
// servers (name/ip/uuid partial, status, flavor, tags, order, DDoS and isolation flags) and GPU
// clusters (managed_by defaulting to [user], ids, and operator filters in deepObject or dotted form).
import type { SimRequest, SimResponse } from '../../../kit/sim/router.js';
import { cloudInvalid } from './answers.js';
import type { Wire } from './fixtures.js';

const ORDER = ['created.asc', 'created.desc', 'name.asc', 'name.desc', 'status.asc', 'status.desc'];
const STATUS = ['ACTIVE', 'BUILD', 'ERROR', 'HARD_REBOOT', 'REBOOT', 'REBUILD', 'RESCUE', 'SHUTOFF', 'SUSPENDED'];
const PROTECTION = ['Active', 'Queued', 'Error'];

type Tag = { key: string; value: string };
const tags = (o: Wire) => (o.tags as Tag[] | undefined) ?? [];
const bool = (req: SimRequest, k: string, dflt: boolean) => {
  const v = req.query.get(k);
  return v === null ? dflt : v === 'true';
};

export function filterServers(req: SimRequest, all: Wire[]): Wire[] | SimResponse {
  const q = req.query;
  const order = q.get('order_by') ?? 'created.desc';
  if (!ORDER.includes(order)) return cloudInvalid('order_by', `'${order}' is not a valid choice`);
  const status = q.get('status');
  if (status !== null && !STATUS.includes(status)) return cloudInvalid('status', `'${status}' is not a valid choice`);
  const protection = q.get('protection_status');
  if (protection !== null && !PROTECTION.includes(protection))
    return cloudInvalid('protection_status', `'${protection}' is not a valid choice`);
  let pairs: Record<string, string> = {};
  const raw = q.get('tag_key_value');
  if (raw !== null) {
    try {
      pairs = JSON.parse(raw);
    } catch {
      return cloudInvalid('tag_key_value', 'must be a JSON object');
    }
  }
  const withDdos = bool(req, 'with_ddos', false);
  const values = q.getAll('tag_value');
  const name = q.get('name')?.toLowerCase();
  const ip = q.get('ip');
  const since = q.get('changes-since');
  const before = q.get('changes-before');
  const addrs = (o: Wire) =>
    Object.values((o.addresses as Record<string, { addr: string }[]>) ?? {})
      .flat()
      .map((a) => a.addr);
  const ddos = (o: Wire) =>
    o.ddos_profile as { status?: { status?: string } | null; profile_template?: { name?: string } | null } | null;
  const out = all.filter(
    (o) =>
      (name === undefined || String(o.name).toLowerCase().includes(name)) &&
      (ip === null || addrs(o).some((a) => a.startsWith(ip))) &&
      (status === null || o.status === status) &&
      (q.get('flavor_id') === null || (o.flavor as Wire).flavor_id === q.get('flavor_id')) &&
      (q.get('flavor_prefix') === null || String((o.flavor as Wire).flavor_id).startsWith(q.get('flavor_prefix')!)) &&
      (q.get('uuid') === null || String(o.id).includes(q.get('uuid')!)) &&
      (!values.length || tags(o).some((t) => values.includes(t.value))) &&
      Object.entries(pairs).every(([k, v]) => tags(o).some((t) => t.key === k && t.value === v)) &&
      (bool(req, 'include_k8s', true) || !tags(o).some((t) => t.key === 'k8s_cluster')) &&
      (!bool(req, 'only_isolated', false) || o.instance_isolation !== null) &&
      (!bool(req, 'only_with_fixed_external_ip', false) ||
        (o.fixed_ip_assignments as { external: boolean }[]).some((a) => a.external)) &&
      (since === null || Date.parse(String(o.created_at)) >= Date.parse(since)) &&
      (before === null || Date.parse(String(o.created_at)) < Date.parse(before)) &&
      (!withDdos || protection === null || ddos(o)?.status?.status === protection) &&
      (!withDdos || q.get('profile_name') === null || ddos(o)?.profile_template?.name === q.get('profile_name')),
  );
  const [field, dir] = order.split('.') as ['created' | 'name' | 'status', 'asc' | 'desc'];
  const key = (o: Wire) => String(field === 'created' ? o.created_at : o[field]);
  out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (dir === 'asc' ? 1 : -1));
  const withNames = bool(req, 'with_interfaces_name', false);
  return out.map((o) => ({
    ...o,
    ddos_profile: withDdos ? o.ddos_profile : null,
    addresses: Object.fromEntries(
      Object.entries((o.addresses as Record<string, Wire[]>) ?? {}).map(([net, list]) => [
        net,
        list.map((a) =>
          a.type === 'fixed' ? { ...a, interface_name: withNames ? (a.interface_name ?? null) : null } : a,
        ),
      ]),
    ),
  }));
}

/** Operator filters: `name[contains]=gpu` (the spec's deepObject) or `name.contains=gpu` (the SDKs'). */
function operatorValues(req: SimRequest, field: string, op: string): string[] {
  return [...req.query.getAll(`${field}[${op}]`), ...req.query.getAll(`${field}.${op}`)].map((v) => v.toLowerCase());
}

function matchesText(req: SimRequest, field: string, values: string[]): boolean {
  const vs = values.map((v) => v.toLowerCase());
  const test = (op: string, f: (v: string, want: string) => boolean) => {
    const wants = operatorValues(req, field, op);
    return !wants.length || wants.some((w) => vs.some((v) => f(v, w)));
  };
  return (
    test('exact', (v, w) => v === w) &&
    test('prefix', (v, w) => v.startsWith(w)) &&
    test('contains', (v, w) => v.includes(w)) &&
    test('suffix', (v, w) => v.endsWith(w))
  );
}

export function filterClusters(req: SimRequest, kind: 'baremetal' | 'virtual', all: Wire[]): Wire[] | SimResponse {
  const managed =
    kind === 'baremetal' ? (req.query.getAll('managed_by').length ? req.query.getAll('managed_by') : ['user']) : [];
  if (managed.some((m) => m !== 'user' && m !== 'k8s')) return cloudInvalid('managed_by', 'must be user or k8s');
  const ids = req.query.getAll('ids');
  const tagPairs: [string, string][] = [];
  req.query.forEach((v, k) => {
    const m = /^tags(?:\[(.+)\]|\.(.+))$/.exec(k);
    if (m) tagPairs.push([m[1] ?? m[2]!, v]);
  });
  return all.filter(
    (o) =>
      (kind !== 'baremetal' || managed.includes(String(o.managed_by))) &&
      (!ids.length || ids.includes(String(o.id))) &&
      matchesText(req, 'name', [String(o.name)]) &&
      matchesText(req, 'flavor', [String(o.flavor)]) &&
      matchesText(
        req,
        'tag_key',
        tags(o).map((t) => t.key),
      ) &&
      matchesText(
        req,
        'tag_value',
        tags(o).map((t) => t.value),
      ) &&
      tagPairs.every(([k, v]) => tags(o).some((t) => t.key === k && t.value === v)),
  );
}
