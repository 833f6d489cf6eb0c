// prova:index/instance:Instance: a container or virtual machine. Create resolves the image, creates
// (tagged with the create's operation id, which read hides and find looks for), starts and waits for
// a global IPv4: a failure after the object exists is a PartialCreateError (recorded tainted). Update
// writes the whole object back with If-Match, toggles running, and renames (the id follows) or
// migrates only with allowRestart; delete stops by force, then deletes.
import { z } from 'zod';
import { defineResource, type CheckIssue, type Prior, type ReadResult } from '../../../engine/provider/define.js';
import { readByGroup } from '../../../kit/read-many.js';
import { PartialCreateError, ProviderError } from '../../../engine/errors.js';
import { scopeIssues } from './checks.js';
import { isOurs } from '../wire/find.js';
import type { OperationContext } from '../../../engine/provider/context.js';
import { type LxdClient } from '../client.js';
import { isNotFound } from '../../../kit/gone.js';
import type { ProvaConfig } from '../wire/connections.js';
import { deviceSchema, fromWire, sortDevices, toWire, MARKER, STANDALONE } from '../wire/devices.js';
import { execSchema, runExecs, type ExecResult } from '../wire/execs.js';
import { canonicalMode, deleteFile, fileIssues, uploadFile } from '../wire/files.js';
import { formatId, parseId } from '../wire/ids.js';
import { imageSource, splitImage } from '../wire/images.js';
import { computedKeys, desiredConfig, taggedConfig } from '../wire/keys.js';
import {
  durationMs,
  isRunning,
  networkOutputs,
  readState,
  startInstance,
  stopInstance,
  type InstanceState,
  type WireInstance,
  type Waits,
} from '../wire/runtime.js';

export const fileSchema = z.object({
  targetPath: z.string().min(1).describe('Absolute path of the file inside the instance, including the file name.'),
  content: z.string().optional().describe('File contents; exactly one of `content` and `sourcePath` must be set.'),
  sourcePath: z
    .string()
    .optional()
    .describe(
      'Path of a local file whose contents are uploaded; exactly one of `content` and `sourcePath` must be set.',
    ),
  uid: z
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe('Numeric owner user id of the file (an unquoted integer); default `0`.'),
  gid: z
    .number()
    .int()
    .nonnegative()
    .default(0)
    .describe('Numeric owner group id of the file (an unquoted integer); default `0`.'),
  mode: z
    .string()
    .default('0755')
    .transform(canonicalMode)
    .describe('Octal permissions as a quoted string, such as `0644`; default `0755`.'),
  createDirectories: z
    .boolean()
    .default(false)
    .describe('Create missing directories leading to `targetPath`; default `false`.'),
});

export const timeoutsSchema = z.object({
  create: z
    .string()
    .default('5m')
    .describe(
      'Longest wait for a create (including start and network), as a duration like `30s`, `5m` or `1h`; default `5m`.',
    ),
  read: z
    .string()
    .default('5m')
    .describe('Longest wait for a read, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
  update: z
    .string()
    .default('5m')
    .describe('Longest wait for an update, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
  delete: z
    .string()
    .default('5m')
    .describe('Longest wait for a delete, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
});

const inputs = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('Name of the instance; changing it renames the instance (a running one only with `allowRestart`).'),
    image: z
      .string()
      .optional()
      .describe(
        'Image to create from, as `alias`, `fingerprint` or `remote:alias`; required for containers, and when omitted a virtual machine is created empty. Changing it replaces the instance.',
      ),
    type: z
      .enum(['container', 'virtual-machine'])
      .default('container')
      .describe('`container` or `virtual-machine`; default `container`. Changing it replaces the instance.'),
    description: z.string().default('').describe('Free-text description of the instance; default empty.'),
    ephemeral: z
      .boolean()
      .default(false)
      .describe(
        'Whether the server deletes the instance when it stops; default `false`. Changing it replaces the instance.',
      ),
    running: z
      .boolean()
      .default(true)
      .describe('Whether the instance should be running; default `true`. Changing it starts or stops the instance.'),
    waitForNetwork: z
      .boolean()
      .default(true)
      .describe(
        'Wait for a global IPv4 address before the instance counts as started; default `true`. No effect when `running` is false or the instance is already running on update.',
      ),
    allowRestart: z
      .boolean()
      .default(false)
      .describe(
        "Permit a stop and restart when a change needs it (renaming, migration to another `target`, growing a VM's memory); default `false`.",
      ),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Instance config settings as LXD key/value strings (e.g. `boot.autostart`); `limits.*`, `volatile.*` and `image.*` keys are not allowed here. Default empty.',
      ),
    limits: z
      .record(z.string(), z.string())
      .default({})
      .describe('Resource limits without the `limits.` prefix (e.g. `cpu: "2"`, `memory: "1GiB"`); default none.'),
    profiles: z
      .array(z.string())
      .optional()
      .describe(
        'Profiles applied in order; when omitted, profile `default` is applied, and an empty list applies none.',
      ),
    devices: z
      .array(deviceSchema)
      .default([])
      .transform(sortDevices)
      .describe('Devices of the instance itself (on top of those from its profiles); default none.'),
    execs: z
      .record(z.string(), execSchema)
      .default({})
      .describe(
        'Commands to run inside the instance, keyed by a name of your choice and run in key order; default none.',
      ),
    files: z.array(fileSchema).default([]).describe('Files uploaded into the instance; default none.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the instance lives in; when omitted, the remote's `default` project is used. Changing it replaces the instance.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the instance; when omitted, the provider's default remote is used. Changing it replaces the instance.",
      ),
    target: z
      .string()
      .optional()
      .describe(
        'Cluster member (or `@group`) to place the instance on; ignored on a standalone server. Changing it migrates the instance (a running one only with `allowRestart`).',
      ),
    timeouts: timeoutsSchema
      .prefault({})
      .describe('Longest waits per operation (`create`, `read`, `update`, `delete`), each `5m` by default.'),
  })
  .describe(
    'A container or virtual machine: created from an image, started (by default) and given devices, files and commands to run.',
  );
export type InstanceInputs = z.output<typeof inputs>;

const ifaceSchema = z.object({
  name: z.string().describe('Interface name inside the instance, such as `eth0`.'),
  type: z.string().describe('Interface type as the server reports it, such as `broadcast`.'),
  state: z.string().describe('Link state, `up` or `down`.'),
  ips: z
    .array(
      z.object({
        address: z.string().describe('IP address, without prefix length.'),
        family: z.string().describe('Address family, `inet` (IPv4) or `inet6` (IPv6).'),
        scope: z.string().describe('Address scope, `global`, `link` or `local`.'),
      }),
    )
    .describe('Addresses of the interface.'),
});
const execResultSchema = z.object({
  exitCode: z
    .number()
    .describe('Exit code of the last run; `-1` when the command has not run or the server gave none.'),
  stdout: z.string().describe('Standard output of the last run; empty unless `recordOutput` is true.'),
  stderr: z.string().describe('Standard error of the last run; empty unless `recordOutput` is true.'),
  runCount: z.number().describe('How many times the command has run so far.'),
});
const outputs = z.object({
  status: z.string().describe('Instance status as the server reports it, such as `Running` or `Stopped`.'),
  location: z.string().describe('Cluster member holding the instance; empty on a standalone server.'),
  ipv4Address: z.string().describe('First global IPv4 address of the instance; empty string when none.'),
  ipv6Address: z.string().describe('First global IPv6 address of the instance; empty string when none.'),
  macAddress: z
    .string()
    .describe(
      'MAC address of the interface that holds the global address; empty when the instance has no global IP address.',
    ),
  interfaces: z
    .record(z.string(), ifaceSchema)
    .describe('Network interfaces except loopback, keyed by interface name.'),
  execResults: z.record(z.string(), execResultSchema).describe('Outcome of each entry of `execs`, under the same key.'),
});

type Ctx = OperationContext<ProvaConfig>;
const isComputed = computedKeys(['volatile.', 'image.']);

/**
 * The waits of one operation: the instance's own `timeouts` entry, cut short to end before the
 * step's limit (so a create can still report what it made instead of being aborted).
 */
function waitsFor(
  ctx: Ctx,
  i: Pick<InstanceInputs, 'timeouts'>,
  op: 'create' | 'update' | 'delete' | 'read',
  startedAt = Date.now(),
): Waits {
  const own = durationMs(i.timeouts?.[op], 300_000);
  const step =
    ctx.timeoutMs === undefined
      ? Infinity
      : ctx.timeoutMs - (Date.now() - startedAt) - Math.min(2000, ctx.timeoutMs / 10);
  return { intervalMs: ctx.config.settings.pollIntervalMs, timeoutMs: Math.max(1, Math.min(own, step)) };
}

const noOutputs = {
  status: '',
  location: '',
  ipv4Address: '',
  ipv6Address: '',
  macAddress: '',
  interfaces: {},
  execResults: {},
};

/** What a create that failed after the instance existed can still say about it (best effort). */
async function partialOutputs(ctx: Ctx, client: LxdClient, name: string, project?: string) {
  if (ctx.signal.aborted) return noOutputs;
  try {
    const got = await getInstance(ctx, client, name, project);
    return got ? await instanceOutputs(ctx, client, got.instance, project) : noOutputs;
  } catch {
    return noOutputs;
  }
}

export async function getInstance(
  ctx: Ctx,
  client: LxdClient,
  name: string,
  project?: string,
): Promise<{ instance: WireInstance; etag?: string } | null> {
  try {
    const r = await client.request<WireInstance>(ctx, {
      method: 'GET',
      pathTemplate: '/1.0/instances/{name}',
      params: { name },
      operation: 'read instance',
      project,
    });
    return { instance: r.metadata, etag: r.etag };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The outputs, read from the real instance and its state. */
export async function instanceOutputs(
  ctx: Ctx,
  client: LxdClient,
  instance: WireInstance,
  project: string | undefined,
  execResults: Record<string, ExecResult> = {},
  known?: InstanceState | null,
) {
  return outputsWith(
    instance,
    known !== undefined ? known : await readState(ctx, client, instance.name, project),
    execResults,
  );
}

/** The outputs of an instance whose state is known. */
function outputsWith(instance: WireInstance, state: InstanceState | null, execResults: Record<string, ExecResult>) {
  return {
    status: state?.status ?? instance.status,
    location: instance.location && instance.location !== 'none' ? instance.location : '',
    ...networkOutputs(instance, state),
    execResults,
  };
}

/** User config (without limits.*) and limits, split out of the server's config. */
export function splitConfig(config: Readonly<Record<string, string>>): {
  config: Record<string, string>;
  limits: Record<string, string>;
} {
  const out = { config: {} as Record<string, string>, limits: {} as Record<string, string> };
  for (const [k, v] of Object.entries(config)) {
    if (isComputed(k)) continue;
    if (k.startsWith('limits.')) out.limits[k.slice(7)] = v;
    else out.config[k] = v;
  }
  return out;
}

/** '512MiB', '1GB', '2GiB', '1073741824' → bytes; undefined for percentages and empty values. */
export function memoryBytes(v: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgtpe])?(i)?b?$/i.exec(v?.trim() ?? '');
  if (!m) return undefined;
  const power = m[2] ? 'kmgtpe'.indexOf(m[2].toLowerCase()) + 1 : 0;
  return Number(m[1]) * (m[3] ? 1024 : 1000) ** power;
}

function mergedConfig(i: InstanceInputs): Record<string, string> {
  const c: Record<string, string> = { ...i.config };
  for (const [k, v] of Object.entries(i.limits)) c[`limits.${k}`] = v;
  return c;
}

async function syncFiles(
  ctx: Ctx,
  client: LxdClient,
  i: InstanceInputs,
  previous: readonly z.output<typeof fileSchema>[],
): Promise<void> {
  for (const f of previous)
    await deleteFile(ctx, client, i.name, i.project, f.targetPath.startsWith('/') ? f.targetPath : `/${f.targetPath}`);
  for (const f of i.files) await uploadFile(ctx, client, i.name, i.project, { ...f, append: false });
}

function check(i: InstanceInputs, config: ProvaConfig): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (i.type === 'container' && !i.image)
    issues.push({
      path: ['image'],
      message: 'is required for a container (only a virtual machine may be created empty)',
    });
  for (const k of Object.keys(i.config)) {
    if (/^(limits|volatile|image)\./.test(k))
      issues.push({
        path: ['config', k],
        message: 'may not set limits.*, volatile.* or image.* keys (use `limits` for limits)',
      });
  }
  for (const k of Object.keys(i.execs))
    if (!/^[a-z0-9_]+$/.test(k)) issues.push({ path: ['execs', k], message: 'exec keys must match [a-z0-9_]+' });
  if (i.ephemeral && !i.running)
    issues.push({ path: ['running'], message: 'an ephemeral instance cannot be stopped (the server deletes it)' });
  i.files.forEach((f, n) => {
    if ((f.content === undefined) === (f.sourcePath === undefined))
      issues.push({ path: ['files', n], message: 'needs exactly one of content and sourcePath' });
    issues.push(...fileIssues(f, ['files', n]));
  });
  issues.push(...scopeIssues(i, config));
  const imageRemote = i.image ? splitImage(i.image).remote : undefined;
  if (imageRemote !== undefined && config?.settings && !config.settings.remotes.has(imageRemote)) {
    issues.push({
      path: ['image'],
      code: 'unknown_remote',
      message: `names an image on an unknown remote "${imageRemote}"`,
    });
  }
  for (const [op, text] of Object.entries(i.timeouts)) {
    const ms = durationMs(text, -1);
    if (ms <= 0 || ms > 2 ** 31 - 1)
      issues.push({
        path: ['timeouts', op],
        code: 'invalid_value',
        message:
          ms < 0
            ? 'must be a duration like "30s", "5m" or "1h"'
            : ms === 0
              ? 'must be longer than zero'
              : 'is longer than a timer can hold (596h at most)',
      });
  }
  return issues;
}

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
function instanceResult(ctx: Ctx, at: Located, prior: Prior, w: WireInstance, state: InstanceState | null): ReadResult {
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
  inputs,
  outputs,
  replaceOn: ['type', 'image', 'ephemeral', 'project', 'remote'],
  // Devices are a set keyed by name upstream; files are keyed by their path in the guest.
  keyedLists: { devices: 'name', files: 'targetPath' },
  computedOnUpdate: ['status', 'location', 'ipv4Address', 'ipv6Address', 'macAddress', 'interfaces', 'execResults'],
  check,
  async create(ctx: Ctx, i) {
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
      await syncFiles(ctx, client, i, []);
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
      return { id, outputs: await instanceOutputs(ctx, client, got.instance, i.project, execResults, known) };
    } catch (error) {
      // The instance exists: whatever failed after (start, the IPv4 wait, files, execs), report it as
      // made so the engine records it tainted and the next plan replaces it.
      throw new PartialCreateError(ctx.address, id, await partialOutputs(ctx, client, i.name, i.project), {
        cause: error,
      });
    }
  },
  async read(ctx: Ctx, id, prior) {
    const at = locate(ctx.config.settings.defaultRemote, id, prior);
    const client = await ctx.config.client(ctx, at.ref.remote);
    const got = await getInstance(ctx, client, at.name, at.project);
    if (!got) return null;
    return instanceResult(ctx, at, prior, got.instance, await readState(ctx, client, got.instance.name, at.project));
  },
  // One `GET /1.0/instances?recursion=2` per remote and project: every instance with its state.
  readMany: readByGroup<Ctx, WireInstance & { state?: InstanceState | null }>({
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
  async update(ctx: Ctx, id, olds, news) {
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
    await syncFiles(ctx, client, news, o.files ?? []);
    const priorExecs = (olds.outputs as { execResults?: Record<string, ExecResult> }).execResults ?? {};
    const execResults = news.running
      ? await runExecs(ctx, client, news.name, news.project, news.execs, priorExecs, { created: false, started })
      : priorExecs;
    const after = (await getInstance(ctx, client, news.name, news.project))!;
    return {
      id: formatId(client.remote, news.project, [news.name]),
      outputs: await instanceOutputs(ctx, client, after.instance, news.project, execResults),
    };
  },
  async delete(ctx: Ctx, id, prior) {
    const p = prior.inputs as Partial<InstanceInputs>;
    const ref = parseId(id, 1, ctx.config.settings.defaultRemote, 'instance');
    const name = p.name ?? ref.fields[0]!;
    const project = p.project ?? (ref.project === 'default' ? undefined : ref.project);
    const client = await ctx.config.client(ctx, ref.remote);
    if ((await stopInstance(ctx, client, name, project, true)) === 'gone') return;
    try {
      await client.request(ctx, {
        method: 'DELETE',
        pathTemplate: '/1.0/instances/{name}',
        params: { name },
        operation: 'delete instance',
        project,
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  },
  /**
   * Exact: the instance of this name carrying the create's operation id (config
   * user.converge.operation). Another instance of that name is not this create's: null.
   */
  async find(ctx: Ctx, i, hint) {
    const client = await ctx.config.client(ctx, i.remote);
    const got = await getInstance(ctx, client, i.name, i.project);
    if (!got || !isOurs(got.instance.config, hint)) return null;
    return {
      id: formatId(client.remote, i.project, [i.name]),
      outputs: await instanceOutputs(ctx, client, got.instance, i.project),
    };
  },
  importId(importId, config: ProvaConfig) {
    const ref = parseId(importId, 1, config.settings.defaultRemote, 'instance');
    return formatId(ref.remote, ref.project, ref.fields, ref.options.image ? { image: ref.options.image } : {});
  },
});
