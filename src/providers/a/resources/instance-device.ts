// prova:index/instanceDevice:InstanceDevice: one device on an existing instance, written by GET +
// whole PUT with If-Match and marked so the Instance resource keeps it. Not importable.
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { ProviderError } from '../../../engine/errors.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import type { ProvaConfig } from '../connections.js';
import { deviceTypes, fromWire, MARKER, STANDALONE, type WireDevices } from '../devices.js';
import { formatId, parseId, scopeInputs } from '../ids.js';
import { enc, getObject, projectOf, replaceObject, type Where } from '../objects.js';
import type { WireInstance } from '../runtime.js';

const inputs = z.object({
  instanceName: z.string().min(1),
  name: z.string().min(1),
  type: z.enum(deviceTypes),
  properties: z.record(z.string(), z.string()),
  project: z.string().optional(),
  remote: z.string().optional(),
  target: z.string().optional(),
});

type Ctx = OperationContext<ProvaConfig>;
const where = (instance: string, project?: string): Where => ({ path: `/1.0/instances/${enc(instance)}`, template: '/1.0/instances/{name}', what: `instance ${instance}`, project: projectOf(project) });
const idOf = (id: string, config: ProvaConfig) => parseId(id, 2, config.settings.defaultRemote, 'instance device');
const putBody = (cur: WireInstance, devices: WireDevices) => ({
  architecture: cur.architecture, config: cur.config, devices, ephemeral: cur.ephemeral, profiles: cur.profiles, stateful: cur.stateful ?? false, description: cur.description,
});

export const instanceDevice = defineResource({
  token: 'prova:index/instanceDevice:InstanceDevice',
  inputs,
  outputs: z.object({}),
  replaceOn: ['instanceName', 'name', 'project', 'remote', 'target'],
  async create(ctx: Ctx, i) {
    const client = await ctx.config.client(ctx, i.remote);
    await replaceObject<WireInstance>(ctx, client, where(i.instanceName, i.project), (cur) => {
      if (cur.devices[i.name]) throw new ProviderError({ provider: 'prova', operation: 'create instance device', retryable: false, status: 409, detail: `instance ${i.instanceName} already has a device named ${i.name}` });
      return putBody(cur, { ...cur.devices, [i.name]: { ...i.properties, type: i.type, [MARKER]: STANDALONE } });
    });
    return { id: formatId(client.remote, i.project, [i.instanceName, i.name]), outputs: {} };
  },
  async read(ctx: Ctx, id, prior) {
    const ref = idOf(id, ctx.config);
    const [instance, name] = ref.fields as [string, string];
    const got = await getObject<WireInstance>(ctx, await ctx.config.client(ctx, ref.remote), where(instance, ref.project));
    const wire = got?.obj.devices[name];
    if (!wire) return null;
    const d = fromWire({ [name]: wire })[0]!;
    return { inputs: { instanceName: instance, name, type: d.type, properties: d.properties, ...scopeInputs(prior.inputs, ref, ctx.config.settings.defaultRemote) }, outputs: {} };
  },
  async update(ctx: Ctx, id, _olds, news) {
    const ref = idOf(id, ctx.config);
    await replaceObject<WireInstance>(ctx, await ctx.config.client(ctx, ref.remote), where(news.instanceName, ref.project), (cur) => putBody(cur, { ...cur.devices, [news.name]: { ...news.properties, type: news.type, [MARKER]: STANDALONE } }));
    return { outputs: {} };
  },
  async delete(ctx: Ctx, id) {
    const ref = idOf(id, ctx.config);
    const [instance, name] = ref.fields as [string, string];
    const client = await ctx.config.client(ctx, ref.remote);
    const got = await getObject<WireInstance>(ctx, client, where(instance, ref.project));
    if (!got?.obj.devices[name]) return;
    await replaceObject<WireInstance>(ctx, client, where(instance, ref.project), (cur) => {
      const { [name]: _gone, ...rest } = cur.devices;
      return putBody(cur, rest);
    });
  },
});
