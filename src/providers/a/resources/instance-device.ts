// prova:index/instanceDevice:InstanceDevice: one device on an existing instance, written by GET +
// whole PUT with If-Match and marked so the Instance resource keeps it (and, at create, with the
// create's operation id, which find looks for). Import id `[remote:][project]/instance/device`.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { ProviderError } from '../../../engine/errors.js';
import { checkScope } from './checks.js';
import { missingObject } from '../errors.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { isOurs } from '../support/find.js';
import { OPERATION_KEY } from '../support/keys.js';
import { deviceTypes, fromWire, MARKER, STANDALONE, type WireDevices } from '../support/devices.js';
import { formatId, parseId, scopeInputs } from '../support/ids.js';
import { getObject, projectOf, replaceObject, type Where } from '../support/objects.js';
import type { WireInstance } from '../support/runtime.js';

const inputs = z
  .object({
    instanceName: z
      .string()
      .min(1)
      .describe('Name of the existing instance the device is attached to. Changing it replaces the device.'),
    name: z.string().min(1).describe('Device name, unique within the instance. Changing it replaces the device.'),
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
    project: z
      .string()
      .optional()
      .describe(
        "Project of the instance; when omitted, the remote's `default` project is used. Changing it replaces the device.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the device; when omitted, the provider's default remote is used. Changing it replaces the device.",
      ),
    target: z
      .string()
      .optional()
      .describe(
        'Cluster member (or group) of the instance; ignored on a standalone server. Changing it replaces the device.',
      ),
  })
  .describe(
    "One device (disk, NIC, proxy, ...) attached to an existing instance, managed separately from the instance's own `devices` list.",
  );

const where = (instance: string, project?: string): Where => ({
  template: '/1.0/instances/{name}',
  params: { name: instance },
  what: `instance ${instance}`,
  project: projectOf(project),
});
const idOf = (id: string, config: ProvaConfig) => parseId(id, 2, config.settings.defaultRemote, 'instance device');
const putBody = (cur: WireInstance, devices: WireDevices) => ({
  architecture: cur.architecture,
  config: cur.config,
  devices,
  ephemeral: cur.ephemeral,
  profiles: cur.profiles,
  stateful: cur.stateful ?? false,
  description: cur.description,
});

export const instanceDevice = defineResource({
  token: 'prova:index/instanceDevice:InstanceDevice',
  inputs,
  outputs: z.object({}),
  replaceOn: ['instanceName', 'name', 'project', 'remote', 'target'],
  docs: {
    importIdFormats: [
      '`[<remote>:][<project>]/<instance>/<device>`: the project segment may be empty (e.g. `/web1/eth1`)',
    ],
  },
  check: checkScope,
  async create(ctx: ProvaContext, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await replaceObject<WireInstance>(ctx, client, where(i.instanceName, i.project), (cur) => {
      if (cur.devices[i.name])
        throw new ProviderError({
          provider: 'prova',
          operation: 'create instance device',
          retryable: false,
          status: 409,
          detail: `instance ${i.instanceName} already has a device named ${i.name}`,
        });
      const tag: Record<string, string> = ctx.operationId ? { [OPERATION_KEY]: ctx.operationId } : {};
      return putBody(cur, {
        ...cur.devices,
        [i.name]: { ...i.properties, type: i.type, [MARKER]: STANDALONE, ...tag },
      });
    });
    return { id: formatId(client.remote, i.project, [i.instanceName, i.name]), outputs: {} };
  },
  async read(ctx: ProvaContext, id, prior) {
    const ref = idOf(id, ctx.config);
    const [instance, name] = ref.fields as [string, string];
    const got = await getObject<WireInstance>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(instance, ref.project),
    );
    const wire = got?.obj.devices[name];
    if (!wire) return null;
    const d = fromWire({ [name]: wire })[0]!;
    return {
      id: formatId(ref.remote, ref.project, [instance, name]),
      inputs: {
        instanceName: instance,
        name,
        type: d.type,
        properties: d.properties,
        ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote),
      },
      outputs: {},
    };
  },
  async update(ctx: ProvaContext, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireInstance>(
      ctx,
      await ctx.config.client(ctx, ref.remote),
      where(news.instanceName, ref.project),
      (cur) =>
        putBody(cur, { ...cur.devices, [news.name]: { ...news.properties, type: news.type, [MARKER]: STANDALONE } }),
    );
    return { outputs: {} };
  },
  /** Exact: the device of this name carrying the create's operation id (device property user.converge.operation). */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    const got = await getObject<WireInstance>(ctx, client, where(i.instanceName, i.project));
    return isOurs(got?.obj.devices[i.name], hint)
      ? { id: formatId(client.remote, i.project, [i.instanceName, i.name]), outputs: {} }
      : null;
  },
  importId: (importId, config: ProvaConfig) => {
    const ref = idOf(importId, config);
    return formatId(ref.remote, ref.project, ref.fields);
  },
  async delete(ctx: ProvaContext, id) {
    const ref = idOf(id, ctx.config);
    const [instance, name] = ref.fields as [string, string];
    const client = await ctx.config.client(ctx, ref.remote);
    // The instance or the device gone: the device is not found, which the engine's delete step takes as done.
    const got = await getObject<WireInstance>(ctx, client, where(instance, ref.project));
    if (!got?.obj.devices[name])
      throw missingObject('delete instance device', `device ${name} of instance ${instance} not found`);
    await replaceObject<WireInstance>(ctx, client, where(instance, ref.project), (cur) => {
      const { [name]: _gone, ...rest } = cur.devices;
      return putBody(cur, rest);
    });
  },
});
