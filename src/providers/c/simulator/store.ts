// The simulator's in-memory account: Cloud objects by project and region, Cloud tasks that go
// NEW → RUNNING → FINISHED (or ERROR) over taskDurationMs and apply their effect when they finish,
// and the CDN collections with integer ids. Tests change objects here to make drift.
import { randomUUID } from 'node:crypto';
import { defaultFixtures, type Fixtures, type Wire } from './fixtures.js';
import { systemClock, type Clock } from '../../../kit/sim/clock.js';

/** One request in the account's CDN activity log (`at`: when, in the store's clock, for ordering). */
export type ActivityEntry = Wire & {
  id: number;
  requested_at: string;
  path: string;
  method: string;
  status_code: number;
  at: number;
};

export type TaskState = 'NEW' | 'RUNNING' | 'FINISHED' | 'ERROR';

export type SimTask = {
  readonly id: string;
  readonly taskType: string;
  readonly projectId: number | null;
  readonly regionId: number | null;
  readonly startedAt: number;
  readonly data: unknown;
  /** Runs when the task finishes; returns its created_resources. */
  readonly effect: () => Record<string, string[]> | void;
  state: TaskState;
  error: string | null;
  createdResources: Record<string, string[]> | null;
  finishedAt: number | null;
  /** Set when the task must end in ERROR with this text. */
  failWith?: string;
};

type Failure = { readonly message: string; readonly taskType?: string };

export class SimStore {
  /** How long a task takes from NEW to FINISHED, in ms; change it to stall tasks. */
  taskDurationMs: number;
  readonly tasks = new Map<string, SimTask>();
  readonly floatingIps = new Map<string, Wire>();
  readonly baremetalServers = new Map<string, Wire>();
  readonly gpuClusters = { baremetal: new Map<string, Wire>(), virtual: new Map<string, Wire>() };
  readonly gpuImages = { baremetal: new Map<string, Wire>(), virtual: new Map<string, Wire>() };
  readonly inferenceFlavors = new Map<string, Wire>();
  readonly cdn = {
    certificates: new Map<number, Wire>(),
    caCertificates: new Map<number, Wire>(),
    originGroups: new Map<number, Wire>(),
    resources: new Map<number, Wire>(),
    rules: new Map<number, Wire & { resourceId: number }>(),
    ruleTemplates: new Map<number, Wire>(),
  };
  /** The CDN activity log (oldest first), as /cdn/activity_log/requests serves it. */
  readonly activity: ActivityEntry[] = [];
  /** The CDN account id (`client` on resources and templates). */
  readonly clientId = 170;
  readonly #failures: Failure[] = [];
  #nextCdnId = 100;
  #nextIp = 10;

  /** The store's time: tasks' progress and the activity log read it, so a test can move it (manualClock). */
  readonly clock: Clock;

  constructor(options: { taskDurationMs?: number; fixtures?: Fixtures; clock?: Clock } = {}) {
    this.taskDurationMs = options.taskDurationMs ?? 30;
    this.clock = options.clock ?? systemClock;
    this.load(options.fixtures ?? defaultFixtures());
    this.cdn.ruleTemplates.set(1, {
      id: 1,
      name: 'Cache images for a day',
      client: this.clientId,
      deleted: false,
      rule: '/*.(jpg|png|gif)$',
      ruleType: 0,
      weight: 1,
      template: true,
      default: true,
      overrideOriginProtocol: null,
      options: {},
    });
  }

  /** Adds read-only fixtures (bare metal servers, GPU clusters and images, inference flavors). */
  load(f: Fixtures): void {
    for (const s of f.baremetalServers ?? []) this.baremetalServers.set(String(s.id), { ...s });
    for (const c of f.gpuBaremetalClusters ?? []) this.gpuClusters.baremetal.set(String(c.id), { ...c });
    for (const c of f.gpuVirtualClusters ?? []) this.gpuClusters.virtual.set(String(c.id), { ...c });
    for (const i of f.gpuBaremetalImages ?? []) this.gpuImages.baremetal.set(String(i.id), { ...i });
    for (const i of f.gpuVirtualImages ?? []) this.gpuImages.virtual.set(String(i.id), { ...i });
    for (const fl of f.inferenceFlavors ?? []) this.inferenceFlavors.set(String(fl.name), { ...fl });
  }

  /** The next task (of `taskType`, when given) ends in ERROR with `message`. */
  failNextTask(message = 'Simulated failure', taskType?: string): void {
    this.#failures.push({ message, taskType });
  }

  addTask(
    taskType: string,
    scope: { projectId: number; regionId: number } | null,
    data: unknown,
    effect: SimTask['effect'],
  ): string {
    const id = randomUUID();
    const i = this.#failures.findIndex((f) => f.taskType === undefined || f.taskType === taskType);
    const failWith = i >= 0 ? this.#failures.splice(i, 1)[0]!.message : undefined;
    this.tasks.set(id, {
      id,
      taskType,
      projectId: scope?.projectId ?? null,
      regionId: scope?.regionId ?? null,
      startedAt: this.clock(),
      data,
      effect,
      state: 'NEW',
      error: null,
      createdResources: null,
      finishedAt: null,
      failWith,
    });
    return id;
  }

  /** Moves every task along its timeline; a task that reaches its end applies its effect once. */
  settle(now = this.clock()): void {
    for (const t of this.tasks.values()) {
      if (t.state === 'FINISHED' || t.state === 'ERROR') continue;
      const elapsed = now - t.startedAt;
      if (elapsed < this.taskDurationMs) {
        t.state = elapsed < this.taskDurationMs / 3 ? 'NEW' : 'RUNNING';
        continue;
      }
      t.finishedAt = now;
      if (t.failWith !== undefined) {
        t.state = 'ERROR';
        t.error = t.failWith;
        continue;
      }
      t.createdResources = t.effect() ?? {};
      t.state = 'FINISHED';
    }
  }

  taskJson(t: SimTask): Wire {
    return {
      id: t.id,
      task_type: t.taskType,
      state: t.state,
      error: t.error,
      created_on: naive(t.startedAt),
      updated_on: t.finishedAt ? naive(t.finishedAt) : null,
      finished_on: t.finishedAt ? naive(t.finishedAt) : null,
      created_resources: t.createdResources,
      detailed_state: t.state === 'FINISHED' ? 'FINISHED' : t.state === 'ERROR' ? 'ERROR' : null,
      data: t.data,
      project_id: t.projectId,
      region_id: t.regionId,
      client_id: this.clientId,
      user_id: 7,
      user_client_id: this.clientId,
      request_id: null,
      job_id: null,
      schedule_id: null,
      lifecycle_policy_id: null,
      acknowledged_at: null,
      acknowledged_by: null,
    };
  }

  nextCdnId(): number {
    return this.#nextCdnId++;
  }

  /** A public address from TEST-NET-3 for a new floating IP. */
  nextPublicIp(): string {
    return `203.0.113.${this.#nextIp++ % 250}`;
  }
}

/** Timestamps as the API writes them: '...Z' for objects, naive for tasks. */
export const iso = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const naive = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
