// Device blocks shared by instances and profiles: the schema, and the marker that tells the devices
// converge wrote from ones added out of band (and an instance's own from InstanceDevice's).
import { z } from 'zod';
import { OPERATION_KEY } from './keys.js';

export const deviceTypes = [
  'none',
  'disk',
  'nic',
  'unix-char',
  'unix-block',
  'usb',
  'gpu',
  'infiniband',
  'proxy',
  'unix-hotplug',
  'tpm',
  'pci',
] as const;

export const deviceSchema = z.object({
  name: z
    .string()
    .min(1)
    .describe('Device name, unique within the list (for a NIC usually `eth0`, for the root disk `root`).'),
  type: z
    .enum(deviceTypes)
    .describe(
      'Device type: `none`, `disk`, `nic`, `unix-char`, `unix-block`, `usb`, `gpu`, `infiniband`, `proxy`, `unix-hotplug`, `tpm` or `pci`.',
    ),
  properties: z
    .record(z.string(), z.string())
    .describe(
      'Device properties as LXD key/value strings (for a disk e.g. `source`, `path`, `pool`); the valid keys depend on `type`.',
    ),
});
export type Device = z.output<typeof deviceSchema>;
export type WireDevices = Record<string, Record<string, string>>;

export const MARKER = 'user.managed-by';
export const OWN = 'converge';
export const STANDALONE = 'converge-instance-device';

/** Declared devices → the wire map, each marked with `owner`. */
export function toWire(devices: readonly Device[], owner = OWN): WireDevices {
  const out: WireDevices = {};
  for (const d of devices) out[d.name] = { ...d.properties, type: d.type, [MARKER]: owner };
  return out;
}

/** The wire map → declared devices (sorted by name), without the marker; `skipOwner`'s devices left out. */
export function fromWire(devices: WireDevices | null | undefined, skipOwner?: string): Device[] {
  const out: Device[] = [];
  for (const [name, props] of Object.entries(devices ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (skipOwner && props[MARKER] === skipOwner) continue;
    const { type, [MARKER]: _marker, [OPERATION_KEY]: _operation, ...properties } = props;
    out.push({ name, type: type as Device['type'], properties });
  }
  return out;
}

/** Sorts declared devices by name, so the order users write them in never diffs. */
export function sortDevices(devices: readonly Device[]): Device[] {
  return [...devices].sort((a, b) => a.name.localeCompare(b.name));
}
