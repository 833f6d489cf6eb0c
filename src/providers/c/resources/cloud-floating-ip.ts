// CloudFloatingIp: a public IP in a project and region, optionally assigned to a port. Create,
// update (tags, port assignment) and delete are Cloud tasks, polled until they finish. The id is
// the floating IP's UUID; import takes '<uuid>' or '<projectId>/<regionId>/<uuid>'.
// find: a create tags the IP with the converge operation id (OPERATION_TAG, hidden from inputs and
// outputs); the create_fip task's `data` keeps that body, so find looks in the task list for the task
// of this operation since the create started, waits for it (under the polling time-out) and answers
// the IP it created; no such task, or one that ended in ERROR, means nothing was made.
import { z } from 'zod';
import {
  cannotTell,
  defineResource,
  isCannotTell,
  type CannotTell,
  type FindHint,
  type FindResult,
} from '../../../engine/provider/define.js';
import type { ProvcConfig, ProvcContext } from '../config.js';
import type { Task } from '../wire/answers.js';
import type { FloatingIp, FloatingIpUpdate } from '../wire/cloud.js';
import { resolveScope, scopeIssues } from '../config.js';
import type { Scope } from '../wire/cloud.js';
import { camelize, tagMap } from '../support/shape.js';
import { waitForCreated, waitForFirst, waitForTask } from '../support/tasks.js';
import { defined } from '../../../kit/wire.js';
import { orNull } from '../../../kit/gone.js';
import { readByGroup } from '../../../kit/read-many.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';

const inputs = z
  .object({
    projectId: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Cloud project id; absent uses the provider's cloudProjectId. Changing it forces replacement."),
    regionId: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Cloud region id; absent uses the provider's cloudRegionId. Changing it forces replacement."),
    portId: z
      .string()
      .uuid()
      .optional()
      .describe('UUID of the port to assign the IP to; absent leaves it unassigned (status DOWN). Changes in place.'),
    fixedIpAddress: z
      .ipv4()
      .optional()
      .describe("Which of the port's fixed IPv4 addresses to map the floating IP to; needs portId."),
    tags: z
      .record(z.string().min(1).max(255), z.string().min(1).max(255))
      .default({})
      .describe(
        "Tags as key-value pairs (1 to 255 characters each; keys without whitespace or '='), for filtering and cost reports.",
      ),
  })
  .describe(
    "A public (floating) IP in a project and region, optionally assigned to a port. Create, update and delete are Cloud tasks, polled until they finish. The id is the IP's UUID; import takes '<uuid>' or '<projectId>/<regionId>/<uuid>'. find looks for the create task tagged with this operation's id.",
  );
type Inputs = z.output<typeof inputs>;
const tag = z.object({
  key: z.string().describe('Tag key.'),
  value: z.string().describe('Tag value.'),
  readOnly: z.boolean().describe('True for a tag set by the platform, which users cannot change.'),
});
const outputs = z.object({
  floatingIpId: z.string().describe('UUID of the floating IP (the resource id).'),
  floatingIpAddress: z.string().nullable().describe('The public IPv4 address.'),
  fixedIpAddress: z
    .string()
    .nullable()
    .describe('Fixed IP address of the assigned port the floating IP maps to; null when unassigned.'),
  portId: z.string().nullable().describe('UUID of the assigned port; null when unassigned.'),
  routerId: z.string().nullable().describe('UUID of the router that carries the mapping; null when unassigned.'),
  status: z.string().nullable().describe('ACTIVE (assigned to a port, in use), DOWN (unassigned, available) or ERROR.'),
  tags: z.array(tag).describe('Tags of the floating IP, read-only ones included.'),
  projectId: z.number().describe('Cloud project id.'),
  regionId: z.number().describe('Cloud region id.'),
  region: z.string().describe('Region name.'),
  createdAt: z.string().describe('Creation time, an ISO 8601 timestamp.'),
  updatedAt: z.string().describe('Time of the last change, an ISO 8601 timestamp.'),
  creatorTaskId: z.string().nullable().describe('UUID of the Cloud task that created the floating IP.'),
});
/** The tag a create writes the converge operation id in; read, outputs and updates leave it alone. */
export const OPERATION_TAG = 'converge-operation';

function toOutputs(w: FloatingIp): Record<string, unknown> {
  const c = camelize(w) as Record<string, unknown>;
  const tags = ((c.tags as { key: string }[] | undefined) ?? []).filter((t) => t.key !== OPERATION_TAG);
  return {
    floatingIpId: w.id,
    floatingIpAddress: c.floatingIpAddress ?? null,
    fixedIpAddress: c.fixedIpAddress ?? null,
    portId: c.portId ?? null,
    routerId: c.routerId ?? null,
    status: c.status ?? null,
    tags,
    projectId: c.projectId,
    regionId: c.regionId,
    region: c.region,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    creatorTaskId: c.creatorTaskId ?? null,
  };
}

function scopeOf(config: ProvcConfig, i: Partial<Inputs>): Scope {
  const s = resolveScope(config.settings, i.projectId, i.regionId);
  return { projectId: s.projectId!, regionId: s.regionId! };
}

const PAGE = 100;
const MAX_PAGES = 20;

/** The create_fip task this operation started (see the header), or null when there is none. */
async function taskOf(ctx: ProvcContext, s: Scope, hint: FindHint): Promise<Task | null | CannotTell> {
  const since = Date.parse(hint.startedAt);
  if (!Number.isFinite(since)) return cannotTell(`the create's start time '${hint.startedAt}' is not a time`);
  // Tasks carry created_on in whole seconds: ask from the second the create started in.
  const from = new Date(Math.floor(since / 1000) * 1000).toISOString();
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await ctx.config.client.listTasks(ctx, {
      task_type: 'create_fip',
      project_id: [s.projectId],
      region_id: [s.regionId],
      from_timestamp: from,
      limit: PAGE,
      offset: page * PAGE,
    });
    const mine = res.results.find(
      (t) => (t.data as { tags?: Record<string, string> } | null)?.tags?.[OPERATION_TAG] === hint.operationId,
    );
    if (mine) return mine;
    if (res.results.length < PAGE || (page + 1) * PAGE >= res.count) return null;
  }
  return cannotTell(`more than ${PAGE * MAX_PAGES} create_fip tasks since the create started`);
}

async function find(ctx: ProvcContext, i: Inputs, hint: FindHint): Promise<FindResult> {
  const s = scopeOf(ctx.config, i);
  const task = await taskOf(ctx, s, hint);
  if (task === null || isCannotTell(task)) return task;
  const done =
    task.state === 'FINISHED' || task.state === 'ERROR'
      ? task
      : await waitForTask(ctx, ctx.config.client, task.id).catch((e: unknown) => {
          if (e instanceof Error && (e as { vendorCode?: string }).vendorCode === 'TASK_ERROR')
            return { ...task, state: 'ERROR' as const };
          throw e;
        });
  const made = done.state === 'FINISHED' ? done.created_resources?.floatingips : undefined;
  if (!Array.isArray(made) || made.length !== 1) return null;
  const w = await orNull(() => ctx.config.client.getFloatingIp(ctx, s, String(made[0])));
  return w ? { id: String(w.id), outputs: toOutputs(w) } : null;
}

/** Splits '<projectId>/<regionId>/<uuid>' (an import id) or returns a bare uuid. */
function parseId(id: string): { uuid: string; projectId?: number; regionId?: number } {
  const parts = id.split('/');
  if (parts.length === 3) return { projectId: Number(parts[0]), regionId: Number(parts[1]), uuid: parts[2]! };
  return { uuid: id };
}

/** Where a recorded floating IP lives: its uuid, the scope ids the user gave, and the scope to ask. */
type Located = {
  readonly uuid: string;
  readonly explicit: { projectId?: number; regionId?: number };
  readonly scope: Scope;
};
function locate(config: ProvcConfig, id: string, prior: Prior): Located {
  const parsed = parseId(id);
  const priorInputs = prior.inputs as Partial<Inputs>;
  const settings = config.settings;
  const explicit = {
    projectId: priorInputs.projectId ?? (parsed.projectId !== settings.cloudProjectId ? parsed.projectId : undefined),
    regionId: priorInputs.regionId ?? (parsed.regionId !== settings.cloudRegionId ? parsed.regionId : undefined),
  };
  const fromOutputs = prior.outputs as { projectId?: number; regionId?: number };
  const scope = scopeOf(config, {
    projectId: explicit.projectId ?? fromOutputs.projectId,
    regionId: explicit.regionId ?? fromOutputs.regionId,
  });
  return { uuid: parsed.uuid, explicit, scope };
}

/** What read answers for a listed or fetched floating IP. */
function floatingIpResult(w: FloatingIp, prior: Prior, at: Pick<Located, 'uuid' | 'explicit'>): ReadResult {
  const priorInputs = prior.inputs as Partial<Inputs>;
  const readInputs = defined({
    ...at.explicit,
    portId: w.port_id ?? undefined,
    fixedIpAddress: priorInputs.fixedIpAddress !== undefined ? (w.fixed_ip_address ?? undefined) : undefined,
    tags: Object.fromEntries(Object.entries(tagMap(w.tags)).filter(([k]) => k !== OPERATION_TAG)),
  });
  return { id: at.uuid, inputs: readInputs, outputs: toOutputs(w) };
}

export const cloudFloatingIp = defineResource({
  token: 'provc:index/cloudFloatingIp:CloudFloatingIp',
  inputs,
  outputs,
  replaceOn: ['projectId', 'regionId'],
  computedOnUpdate: ['fixedIpAddress', 'portId', 'status', 'tags', 'updatedAt', 'routerId'],
  check: (i, config: ProvcConfig) => [
    ...scopeIssues(config.settings, i.projectId, i.regionId),
    ...(i.fixedIpAddress !== undefined && i.portId === undefined
      ? [{ path: ['fixedIpAddress'], code: 'invalid_value', message: 'fixedIpAddress needs portId' }]
      : []),
  ],
  create: async (ctx: ProvcContext, i) => {
    const s = scopeOf(ctx.config, i);
    const tags = { ...i.tags, ...(ctx.operationId ? { [OPERATION_TAG]: ctx.operationId } : {}) };
    const body = defined({
      port_id: i.portId,
      fixed_ip_address: i.fixedIpAddress,
      tags: Object.keys(tags).length ? tags : undefined,
    });
    const tasks = await ctx.config.client.createFloatingIp(ctx, s, body);
    const id = await waitForCreated(ctx, ctx.config.client, tasks, 'floatingips');
    return { id, outputs: toOutputs(await ctx.config.client.getFloatingIp(ctx, s, id)) };
  },
  read: async (ctx, id, prior) => {
    const at = locate(ctx.config, id, prior);
    const w = await orNull(() => ctx.config.client.getFloatingIp(ctx, at.scope, at.uuid));
    return w ? floatingIpResult(w, prior, at) : null;
  },
  // One listing (all its pages) per project and region.
  readMany: readByGroup({
    groupOf: (ctx, it) => JSON.stringify(locate(ctx.config, it.id, it.prior).scope),
    list: (ctx, scope) => ctx.config.client.allFloatingIps(ctx, JSON.parse(scope) as Scope),
    idOf: (w) => String(w.id),
    pick: (listed, _all, id) => listed.get(parseId(id).uuid),
    toResult: (w, prior, id, ctx) => floatingIpResult(w, prior, locate(ctx.config, id, prior)),
  }),
  update: async (ctx, id, olds, news) => {
    const s = scopeOf(ctx.config, news);
    const old = olds.inputs as Partial<Inputs>;
    const body: FloatingIpUpdate = {};
    if (old.portId !== news.portId) body.port_id = news.portId ?? null;
    if (old.fixedIpAddress !== news.fixedIpAddress || 'port_id' in body)
      body.fixed_ip_address = news.fixedIpAddress ?? null;
    const tagChanges: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(news.tags)) if (old.tags?.[k] !== v) tagChanges[k] = v;
    for (const k of Object.keys(old.tags ?? {})) if (!(k in news.tags)) tagChanges[k] = null;
    if (Object.keys(tagChanges).length) body.tags = tagChanges;
    if (Object.keys(body).length)
      await waitForFirst(
        ctx,
        ctx.config.client,
        await ctx.config.client.updateFloatingIp(ctx, s, parseId(id).uuid, body),
      );
    return { outputs: toOutputs(await ctx.config.client.getFloatingIp(ctx, s, parseId(id).uuid)) };
  },
  delete: async (ctx, id, prior) => {
    const o = prior.outputs as { projectId?: number; regionId?: number };
    const s = scopeOf(ctx.config, {
      projectId: o.projectId ?? (prior.inputs as Inputs).projectId,
      regionId: o.regionId ?? (prior.inputs as Inputs).regionId,
    });
    await waitForFirst(ctx, ctx.config.client, await ctx.config.client.deleteFloatingIp(ctx, s, parseId(id).uuid));
  },
  find,
  importId: (importId) => {
    const p = parseId(importId);
    if (!p.uuid || (importId.includes('/') && !(Number.isInteger(p.projectId) && Number.isInteger(p.regionId)))) {
      throw new TypeError(
        `Expected a floating IP import id '<uuid>' or '<projectId>/<regionId>/<uuid>', got '${importId}'`,
      );
    }
    return importId;
  },
});
