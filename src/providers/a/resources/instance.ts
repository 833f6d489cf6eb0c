// prova:index/instance:Instance: a container or virtual machine. Create resolves the image, creates
// (tagged with the create's operation id, which read hides and find looks for), starts and waits for
// a global IPv4: a failure after the object exists is a PartialCreateError (recorded tainted). Update
// writes the whole object back with If-Match, toggles running, and renames (the id follows) or
// migrates only with allowRestart; delete stops by force, then deletes.
import { defineResource, type Prior, type ReadResult } from '../../../engine/provider/define.js';
import { readByGroup } from '../../../kit/read-many.js';
import { PartialCreateError, ProviderError } from '../../../engine/errors.js';
import { isOurs } from '../support/find.js';
import { instanceInputs, instanceOutputs, checkInstance, type InstanceInputs } from './instance-schema.js';
import {
  getInstance,
  isComputed,
  memoryBytes,
  outputsWith,
  partialOutputs,
  readOutputs,
  splitConfig,
  mergedConfig,
  waitsFor,
} from '../support/instances.js';
import { missingObject } from '../errors.js';
import type { ProvaConfig, ProvaContext } from '../config.js';
import { fromWire, toWire, MARKER, STANDALONE } from '../support/devices.js';
import { runExecs, type ExecResult } from '../support/execs.js';
import { replaceFiles } from '../support/files.js';
import { formatId, parseId } from '../support/ids.js';
import { imageSource } from '../support/images.js';
import { desiredConfig, taggedConfig } from '../support/keys.js';
import {
  isRunning,
  readState,
  startInstance,
  stopInstance,
  type InstanceState,
  type WireInstance,
} from '../support/runtime.js';

/** Where a recorded instance lives: its id's parts, its name and its project. */
type Located = {
  readonly ref: ReturnType<typeof parseId>;
  readonly name: string;
  readonly project: string | undefined;
  readonly p: Partial<InstanceInputs>;
};
function locate(defaultRemote: string, id: string, prior: Prior): Located {
  const p = prior.inputs as Partial<InstanceInputs>;
  const ref = parseId(id, 1, defaultRemote, 'instance');
  return {
    ref,
    p,
    name: p.name ?? ref.fields[0]!,
    project: p.project ?? (ref.project === 'default' ? undefined : ref.project),
  };
}

/** What read answers for instance `w` with its state. */
function instanceResult(
  ctx: ProvaContext,
  at: Located,
  prior: Prior,
  w: WireInstance,
  state: InstanceState | null,
): ReadResult {
  const { p, ref } = at;
  const split = splitConfig(w.config);
  const sameProfiles = p.profiles === undefined && w.profiles.length === 1 && w.profiles[0] === 'default';
  const read: Record<string, unknown> = {
    ...p,
    name: w.name,
    type: w.type,
    description: w.description,
    ephemeral: w.ephemeral,
    running: isRunning(state),
    config: split.config,
    limits: split.limits,
    devices: fromWire(w.devices, STANDALONE),
    ...(sameProfiles ? {} : { profiles: w.profiles }),
    ...(p.remote === undefined && ref.remote !== ctx.config.settings.defaultRemote ? { remote: ref.remote } : {}),
    ...(p.project === undefined && ref.project !== 'default' ? { project: ref.project } : {}),
    ...(p.image === undefined && ref.options.image ? { image: ref.options.image } : {}),
  };
  const execResults = (prior.outputs as { execResults?: Record<string, ExecResult> }).execResults ?? {};
  // The `,image=` option of an import id only feeds `image` above; the recorded id never carries it.
  // The id names the instance as it is now called (a rename moves it).
  return { id: formatId(ref.remote, ref.project, [w.name]), inputs: read, outputs: outputsWith(w, state, execResults) };
}

export const instance = defineResource({
  token: 'prova:index/instance:Instance',
  inputs: instanceInputs,
  outputs: instanceOutputs,
  replaceOn: ['type', 'image', 'ephemeral', 'project', 'remote'],
  // Devices are a set keyed by name upstream; files are keyed by their path in the guest.
  keyedLists: { devices: 'name', files: 'targetPath' },
  computedOnUpdate: ['status', 'location', 'ipv4Address', 'ipv6Address', 'macAddress', 'interfaces', 'execResults'],
  check: checkInstance,
  async create(ctx: ProvaContext, i) {
    const startedAt = Date.now();
    const client = await ctx.config.client(ctx, i.remote);
    const source = await imageSource(ctx, ctx.config, client, i.image, i.project);
    const waits = waitsFor(ctx, i, 'create', startedAt);
    await client.request(ctx, {
      method: 'POST',
      pathTemplate: '/1.0/instances',
      operation: 'create instance',
      project: i.project,
      target: i.target,
      waitMs: waits.timeoutMs,
      body: {
        name: i.name,
        type: i.type,
        description: i.description,
        ephemeral: i.ephemeral,
        ...(i.profiles ? { profiles: i.profiles } : {}),
        config: taggedConfig(mergedConfig(i), ctx.operationId),
        devices: toWire(i.devices),
        source,
      },
    });
    const id = formatId(client.remote, i.project, [i.name]);
    ctx.report({ kind: 'progress', message: `instance ${i.name} created${i.running ? '; starting it' : ''}` });
    try {
      const state = i.running
        ? await startInstance(ctx, client, i.name, i.project, waitsFor(ctx, i, 'create', startedAt), {
            knownStopped: true,
            network: i.waitForNetwork,
          })
        : undefined;
      await replaceFiles(ctx, client, i.name, i.project, [], i.files);
      const ran = i.running && Object.keys(i.execs).length > 0;
      const execResults = ran
        ? await runExecs(ctx, client, i.name, i.project, i.execs, {}, { created: true, started: true })
        : {};
      const got = await getInstance(ctx, client, i.name, i.project);
      if (!got)
        throw new ProviderError({
          provider: 'prova',
          operation: 'create instance',
          retryable: false,
          notFound: true,
          detail: `instance ${i.name} vanished right after it was created`,
        });
      // The state read by the last poll is current unless commands ran since (or nothing was polled).
      const known = state && !ran && i.waitForNetwork ? state : undefined;
      return { id, outputs: await readOutputs(ctx, client, got.instance, i.project, execResults, known) };
    } catch (error) {
      // The instance exists: whatever failed after (start, the IPv4 wait, files, execs), report it as
      // made so the engine records it tainted and the next plan replaces it.
      throw new PartialCreateError(ctx.address, id, await partialOutputs(ctx, client, i.name, i.project), {
        cause: error,
      });
    }
  },
  async read(ctx: ProvaContext, id, prior) {
    const at = locate(ctx.config.settings.defaultRemote, id, prior);
    const client = await ctx.config.client(ctx, at.ref.remote);
    const got = await getInstance(ctx, client, at.name, at.project);
    if (!got) return null;
    return instanceResult(ctx, at, prior, got.instance, await readState(ctx, client, got.instance.name, at.project));
  },
  // One `GET /1.0/instances?recursion=2` per remote and project: every instance with its state.
  readMany: readByGroup<ProvaContext, WireInstance & { state?: InstanceState | null }>({
    groupOf: (ctx, it) => {
      const at = locate(ctx.config.settings.defaultRemote, it.id, it.prior);
      return JSON.stringify([at.ref.remote, at.project ?? null]);
    },
    list: async (ctx, group) => {
      const [remote, project] = JSON.parse(group) as [string, string | null];
      const client = await ctx.config.client(ctx, remote);
      return (
        await client.request<(WireInstance & { state?: InstanceState | null })[]>(ctx, {
          method: 'GET',
          pathTemplate: '/1.0/instances',
          operation: 'list instances',
          project: project ?? undefined,
          query: { recursion: '2' },
        })
      ).metadata;
    },
    idOf: (w) => w.name,
    pick: (listed, _all, id, prior) => listed.get(locate('', id, prior).name),
    toResult: (w, prior, id, ctx) =>
      instanceResult(ctx, locate(ctx.config.settings.defaultRemote, id, prior), prior, w, w.state ?? null),
  }),
  async update(ctx: ProvaContext, id, olds, news) {
    const o = olds.inputs as InstanceInputs;
    const client = await ctx.config.client(ctx, news.remote);
    const current = await getInstance(ctx, client, o.name, news.project);
    if (!current)
      throw new ProviderError({
        provider: 'prova',
        operation: 'update instance',
        retryable: false,
        notFound: true,
        status: 404,
        detail: `instance ${o.name} not found`,
      });
    const clustered = await client.isClustered(ctx);
    const rename = o.name !== news.name;
    const migrate = clustered && !!news.target && news.target !== o.target && current.instance.location !== news.target;
    const state = await readState(ctx, client, o.name, news.project);
    const wasRunning = isRunning(state);
    const field = rename ? 'name' : 'target';
    // A VM cannot hot-grow its memory: with allowRestart, a larger limits.memory restarts it.
    const growVm =
      news.type === 'virtual-machine' &&
      news.allowRestart &&
      (memoryBytes(news.limits.memory) ?? 0) > (memoryBytes(current.instance.config['limits.memory']) ?? Infinity);
    if ((rename || migrate) && wasRunning && news.running && !news.allowRestart) {
      throw new ProviderError({
        provider: 'prova',
        operation: 'update instance',
        retryable: false,
        vendorCode: 'restart_required',
        detail: `changing \`${field}\` of instance ${o.name} needs a stop and restart; set allowRestart: true to allow it (nothing was changed)`,
      });
    }
    const waits = waitsFor(ctx, news, 'update');
    if (wasRunning && (rename || migrate || growVm || !news.running))
      await stopInstance(ctx, client, o.name, news.project, false, waits);
    const fresh = (await getInstance(ctx, client, o.name, news.project))!;
    const kept = Object.fromEntries(Object.entries(fresh.instance.devices).filter(([, d]) => d[MARKER] === STANDALONE));
    await client.request(ctx, {
      method: 'PUT',
      pathTemplate: '/1.0/instances/{name}',
      params: { name: o.name },
      operation: 'update instance',
      project: news.project,
      etag: fresh.etag,
      body: {
        architecture: fresh.instance.architecture,
        stateful: fresh.instance.stateful ?? false,
        ephemeral: news.ephemeral,
        description: news.description,
        config: desiredConfig(fresh.instance.config, mergedConfig(news), isComputed),
        profiles: news.profiles ?? ['default'],
        devices: { ...kept, ...toWire(news.devices) },
      },
    });
    if (rename)
      await client.request(ctx, {
        method: 'POST',
        pathTemplate: '/1.0/instances/{name}',
        params: { name: o.name },
        operation: 'rename instance',
        project: news.project,
        body: { name: news.name },
      });
    if (migrate)
      await client.request(ctx, {
        method: 'POST',
        pathTemplate: '/1.0/instances/{name}',
        params: { name: news.name },
        operation: 'migrate instance',
        project: news.project,
        target: news.target,
        body: { name: news.name, migration: true, live: false },
      });
    let started = false;
    if (news.running && !isRunning(await readState(ctx, client, news.name, news.project))) {
      await startInstance(ctx, client, news.name, news.project, waits, { network: !wasRunning && news.waitForNetwork });
      started = true;
    }
    await replaceFiles(ctx, client, news.name, news.project, o.files ?? [], news.files);
    const priorExecs = (olds.outputs as { execResults?: Record<string, ExecResult> }).execResults ?? {};
    const execResults = news.running
      ? await runExecs(ctx, client, news.name, news.project, news.execs, priorExecs, { created: false, started })
      : priorExecs;
    const after = (await getInstance(ctx, client, news.name, news.project))!;
    return {
      id: formatId(client.remote, news.project, [news.name]),
      outputs: await readOutputs(ctx, client, after.instance, news.project, execResults),
    };
  },
  async delete(ctx: ProvaContext, id, prior) {
    const p = prior.inputs as Partial<InstanceInputs>;
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'instance');
    const name = p.name ?? ref.fields[0]!;
    const project = p.project ?? (ref.project === 'default' ? undefined : ref.project);
    const client = await ctx.config.client(ctx, ref.remote);
    // Gone (before the stop, or with it: an ephemeral instance) is not found, which the engine's
    // delete step takes as done; so is a 404 to the DELETE.
    if ((await stopInstance(ctx, client, name, project, true)) === 'gone')
      throw missingObject('delete instance', `instance ${name} not found`);
    await client.request(ctx, {
      method: 'DELETE',
      pathTemplate: '/1.0/instances/{name}',
      params: { name },
      operation: 'delete instance',
      project,
    });
  },
  /**
   * Exact: the instance of this name carrying the create's operation id (config
   * user.converge.operation). Another instance of that name is not this create's: null.
   */
  async find(ctx: ProvaContext, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    const got = await getInstance(ctx, client, i.name, i.project);
    if (!got || !isOurs(got.instance.config, hint)) return null;
    return {
      id: formatId(client.remote, i.project, [i.name]),
      outputs: await readOutputs(ctx, client, got.instance, i.project),
    };
  },
  importId(importId, config: ProvaConfig) {
    const ref = parseId(importId, 1, config.settings.defaultRemote, 'instance');
    return formatId(ref.remote, ref.project, ref.fields, ref.options.image ? { image: ref.options.image } : {});
  },
});
