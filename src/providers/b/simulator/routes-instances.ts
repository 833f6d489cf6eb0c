// Simulated instances: create (BUILDING → ACTIVE), get, paginated list, update, tags, firewall,
// resize (up only) and delete, with the irregular not-found code `database_instance_find`.
import type { Route } from '../../../kit/sim/router.js';
import type { Wire } from './object.js';
import type { SimStore } from './store.js';
import { byId, bodyOf, fail, given, missing, ok, page, success } from './answers.js';
import { diskImages, sizes } from './catalogue.js';
import { route } from './endpoint.js';
import { overQuota } from './quota.js';

const ADJ = ['brave', 'calm', 'eager', 'fancy', 'gentle', 'happy', 'jolly', 'lively'];
const NOUN = ['otter', 'falcon', 'maple', 'river', 'comet', 'badger', 'cedar', 'harbor'];
const noInstance = () => missing('database_instance_find', 'instance');

export function sizeRank(name: string): number {
  const s = sizes.find((x) => x.name === name);
  return s ? s.cpu_cores * 100000 + s.ram_mb : -1;
}

/** Assigns a reserved IP to an instance (shared with the reserved-IP actions). */
export function assignIp(s: SimStore, ip: Wire, instance: Wire): void {
  if (ip.assigned_to?.id && ip.assigned_to.id !== instance.id) unassignIp(s, ip);
  ip.assigned_to = { id: instance.id, type: 'instance', name: instance.hostname };
  instance.public_ip = ip.ip;
  instance.reserved_ip_id = ip.id;
  instance.reserved_ip_name = ip.name;
  instance.reserved_ip = ip.ip;
}

export function unassignIp(s: SimStore, ip: Wire): void {
  const inst = ip.assigned_to?.id ? s.instances.get(ip.assigned_to.id) : undefined;
  if (inst) {
    inst.public_ip = s.ephemeralIps.get(inst.id) ?? '';
    inst.reserved_ip_id = '';
    inst.reserved_ip_name = '';
    inst.reserved_ip = '';
  }
  ip.assigned_to = { id: '', type: '', name: '' };
}

function create(b: Wire, s: SimStore, region: string) {
  const size = sizes.find((x) => x.name === (given(b.size) ?? 'g3.xsmall') && x.type === 'Instance');
  if (!size) return fail('database_size_not_found', 'Failed to find the size within the internal database', 400);
  const image = diskImages.find((i) => i.id === b.template_id || i.name === b.template_id);
  if (!image) return missing('database_disk_image_not_found', 'disk image');
  const network = given(b.network_id) ? byId(s.networks, b.network_id, region) : s.defaultNetwork(region);
  if (!network) return missing('database_network_not_found', 'network');
  const hostname =
    given<string>(b.hostname) ??
    `${ADJ[s.instances.size % ADJ.length]}-${NOUN[(s.instances.size * 3) % NOUN.length]}-${s.id().slice(0, 4)}`;
  if (/\s/.test(hostname)) return fail('parameter_name_invalid', 'The hostname supplied is invalid');
  if (s.inRegion(s.instances, region).some((i) => i.hostname === hostname))
    return fail('database_instance_duplicate_name', `An instance named ${hostname} already exists`);
  let firewall = given(b.firewall_id) ? byId(s.firewalls, b.firewall_id, region) : s.defaultFirewall(network.id);
  if (given(b.firewall_id) && !firewall) return missing('database_firewall_not_found', 'firewall');
  if (firewall && firewall.network_id !== network.id)
    return fail('database_firewall_mismatch', `firewall ${firewall.id} is not part of network ${network.id}`);
  firewall ??= s.defaultFirewall(network.id);
  const reserved = given<string>(b.reserved_ipv4);
  const ip = reserved
    ? s.inRegion(s.ips, region).find((x) => x.id === reserved || x.name === reserved || x.ip === reserved)
    : undefined;
  if (reserved && !ip) return missing('database_ip_find', 'IP');
  const publicIp = String(given(b.public_ip) ?? 'create');
  if (!['create', 'none', 'true', 'false'].includes(publicIp))
    return fail('parameter_public_ip_missing', 'public_ip must be create or none');
  const over = overQuota(s, {
    instance_count: 1,
    cpu_core: size.cpu_cores,
    ram_mb: size.ram_mb,
    disk_gb: size.disk_gb,
    public_ip_address: publicIp === 'create' || publicIp === 'true' ? 1 : 0,
  });
  if (over) return over;
  const id = s.id();
  const sshKey = given<string>(b.ssh_key_id) ? s.sshkeys.get(b.ssh_key_id) : undefined;
  if (given(b.ssh_key_id) && !sshKey) return missing('database_ssh_key_not_found', 'SSH key');
  // The first instance of a network gets a public IP whatever `public_ip` says (real Civo; the
  // Terraform provider warns about it): the network's gateway to the internet.
  const first = !s.inRegion(s.instances, region).some((i) => i.network_id === network.id);
  const ephemeral = publicIp === 'create' || publicIp === 'true' || (first && !ip) ? s.address('public') : '';
  s.ephemeralIps.set(id, ephemeral);
  const tags = typeof b.tags === 'string' ? b.tags.split(' ').filter(Boolean) : Array.isArray(b.tags) ? b.tags : [];
  const inst: Wire = {
    id,
    openstack_server_id: s.id(),
    openstack_image_id: null,
    hostname,
    reverse_dns: given(b.reverse_dns) ?? hostname,
    size: size.name,
    region,
    network_id: network.id,
    private_ip: given(b.private_ipv4) ?? s.address('private'),
    public_ip: ephemeral,
    ipv6: '',
    pseudo_ip: s.address('private'),
    template_id: image.id,
    source_type: 'diskimage',
    source_id: image.name,
    snapshot_id: '',
    initial_user: given(b.initial_user) ?? image.initial_user ?? 'civo',
    initial_password: sshKey ? '' : s.secret(8),
    ssh_key: sshKey?.public_key ?? '',
    ssh_key_id: sshKey?.id ?? '',
    status: 'BUILDING',
    notes: given(b.notes) ?? '',
    firewall_id: firewall?.id ?? '',
    tags,
    civostatsd_token: '',
    civostatsd_stats: '',
    rescue_password: '',
    volume_backed: false,
    cpu_cores: size.cpu_cores,
    ram_mb: size.ram_mb,
    disk_gb: size.disk_gb,
    gpu_count: 0,
    gpu_type: '',
    script: given(b.script) ? Buffer.from(String(b.script)).toString('base64') : '',
    created_at: s.now(),
    reserved_ip_id: '',
    reserved_ip_name: '',
    reserved_ip: '',
    volume_type: given(b.volume_type) ?? 'ssd',
    subnets: [],
    attached_volumes: [],
    placement_rule: {},
    network_bandwidth_limit: 0,
    allowed_ips: [],
    account_id: s.accountId,
  };
  s.instances.set(id, inst);
  if (ip) assignIp(s, ip, inst);
  s.schedule(s.timings.instance, () => {
    if (inst.status === 'BUILDING') inst.status = 'ACTIVE';
  });
  return ok(inst);
}

export function instanceRoutes(): Route<SimStore>[] {
  const get = (s: SimStore, id: string, region: string) => byId(s.instances, id, region);
  return [
    route('GET', '/v2/instances', (req, s, r) => {
      const tags = req.query.get('tags');
      return page(
        req,
        s.inRegion(s.instances, r).filter((i) => !tags || tags.split(' ').every((t) => i.tags.includes(t))),
      );
    }),
    route('GET', '/v2/instances/:id', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      return i ? ok(i) : noInstance();
    }),
    route('POST', '/v2/instances', (req, s, r) => create(bodyOf(req), s, r)),
    route('PUT', '/v2/instances/:id', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      if (!i) return noInstance();
      const b = bodyOf(req);
      if (given(b.hostname)) {
        if (s.inRegion(s.instances, r).some((o) => o.hostname === b.hostname && o.id !== i.id))
          return fail('database_instance_duplicate_name', `An instance named ${b.hostname} already exists`);
        i.hostname = b.hostname;
      }
      if (given(b.reverse_dns)) i.reverse_dns = b.reverse_dns;
      if (b.notes_delete === 'true' || b.notes_delete === true) i.notes = '';
      else if (given(b.notes) !== undefined) i.notes = b.notes;
      return success({ id: i.id });
    }),
    route('PUT', '/v2/instances/:id/tags', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      if (!i) return noInstance();
      const tags = bodyOf(req).tags;
      i.tags = typeof tags === 'string' ? tags.split(' ').filter(Boolean) : [];
      return success();
    }),
    route('PUT', '/v2/instances/:id/firewall', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      if (!i) return noInstance();
      const fw = byId(s.firewalls, String(bodyOf(req).firewall_id ?? ''), r);
      if (!fw) return missing('database_firewall_not_found', 'firewall');
      if (fw.network_id !== i.network_id)
        return fail('database_firewall_mismatch', `firewall ${fw.id} is not part of network ${i.network_id}`);
      i.firewall_id = fw.id;
      return success();
    }),
    route('PUT', '/v2/instances/:id/resize', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      if (!i) return noInstance();
      const size = sizes.find((x) => x.name === bodyOf(req).size && x.type === 'Instance');
      if (!size) return fail('database_size_not_found', 'Failed to find the size within the internal database', 400);
      if (sizeRank(size.name) < sizeRank(i.size))
        return fail('openstack_instance_resize', 'An instance can only be resized to a larger size');
      Object.assign(i, { size: size.name, cpu_cores: size.cpu_cores, ram_mb: size.ram_mb, disk_gb: size.disk_gb });
      return success();
    }),
    route('DELETE', '/v2/instances/:id', (req, s, r) => {
      const i = get(s, req.params.id!, r);
      if (!i) return noInstance();
      for (const ip of s.ips.values()) if (ip.assigned_to?.id === i.id) ip.assigned_to = { id: '', type: '', name: '' };
      for (const v of s.volumes.values())
        if (v.instance_id === i.id) Object.assign(v, { instance_id: null, mountpoint: null, status: 'available' });
      s.instances.delete(i.id);
      s.ephemeralIps.delete(i.id);
      s.vnc.delete(i.id);
      return success();
    }),
  ];
}
