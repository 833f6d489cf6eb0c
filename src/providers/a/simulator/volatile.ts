// The volatile.* and image.* keys the daemon keeps in an instance's config, as LXD 5.x writes them:
// at creation (image properties, base image, uuids, MAC addresses, the next idmap, apply_template),
// at start (the current idmap, the host-side veth name, power state) and at stop.
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256, type Instance, type Obj } from './store.js';

/** The idmap of an unprivileged container on the CI host (root:100000:10000001 in /etc/subuid and /etc/subgid). */
const IDMAP = JSON.stringify([
  { Isuid: true, Isgid: false, Hostid: 100000, Nsid: 0, Maprange: 10000001 },
  { Isuid: false, Isgid: true, Hostid: 100000, Nsid: 0, Maprange: 10000001 },
]);

export const hwaddr = (n: number, dev: string) =>
  `00:16:3e:${sha256(dev).slice(0, 2)}:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 255).toString(16).padStart(2, '0')}`;

export function onCreate(i: Instance, image: Obj | undefined, nics: readonly string[]): void {
  const c = i.config;
  if (image) {
    for (const [k, v] of Object.entries((image.properties ?? {}) as Record<string, string>)) c[`image.${k}`] = v;
    c['volatile.base_image'] = String(image.fingerprint);
    c['volatile.apply_template'] = 'create';
  }
  c['volatile.cloud-init.instance-id'] = randomUUID();
  for (const dev of nics) c[`volatile.${dev}.hwaddr`] = hwaddr(i.hostIndex, dev);
  c['volatile.idmap.base'] = '0';
  c['volatile.idmap.next'] = IDMAP;
  c['volatile.last_state.idmap'] = '[]';
  c['volatile.uuid'] = randomUUID();
}

export function onStart(i: Instance, nics: readonly string[]): void {
  const c = i.config;
  delete c['volatile.apply_template'];
  c['volatile.idmap.current'] = c['volatile.idmap.next'] ?? IDMAP;
  c['volatile.last_state.idmap'] = c['volatile.idmap.current'];
  for (const dev of nics) c[`volatile.${dev}.host_name`] = `veth${randomBytes(4).toString('hex')}`;
  c['volatile.last_state.power'] = 'RUNNING';
}

export function onStop(i: Instance, nics: readonly string[]): void {
  for (const dev of nics) delete i.config[`volatile.${dev}.host_name`];
  i.config['volatile.last_state.power'] = 'STOPPED';
}
