// The fake LXD's in-memory objects: server info, instances (with state, files, fake addresses on
// 198.18.0.0/24), images, networks, ACLs, forwards, profiles, projects, pools, volumes, auth groups
// and identities, and operations that finish after a configurable delay.
import { createHash, randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { EventHub } from './events.js';
import { LXD_VERSION, lxd521Extensions } from './extensions.js';
import { systemClock, type Clock } from '../../../kit/sim/clock.js';

export type SimOptions = {
  /** Server version reported in /1.0 ('5.21.0', the LTS whose API the fake serves, by default). */
  readonly version?: string;
  /** api_extensions; defaults to LXD 5.21.0's full list (which has access_management). */
  readonly extensions?: readonly string[];
  /** How /wait reports a failed operation: 5.0 (200 sync with status_code 400) or 5.20 (200 + error envelope, the default as on 5.21). */
  readonly waitStyle?: '5.0' | '5.20';
  /** Milliseconds an operation runs before it finishes. */
  readonly operationMs?: number;
  /** Milliseconds after start before the instance's eth0 has its IPv4 address. */
  readonly networkDelayMs?: number;
  /** The store's time (when a started instance gets its address); a test passes manualClock() to move it. */
  readonly clock?: Clock;
  /** Trust password for POST /1.0/certificates (TLS mode). */
  readonly trustPassword?: string;
  /** Cluster member names: a non-empty list makes the server clustered (placement, ?target=, migration). */
  readonly members?: readonly string[];
};

export type File = { type: 'file' | 'directory'; content: string; mode: number; uid: number; gid: number };
export type Instance = {
  name: string;
  project: string;
  type: string;
  description: string;
  ephemeral: boolean;
  stateful: boolean;
  architecture: string;
  profiles: string[];
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
  location: string;
  createdAt: string;
  running: boolean;
  startedAt: number;
  hostIndex: number;
  files: Map<string, File>;
  /** Snapshots, oldest first: the instance's config, devices, profiles and files when each was taken. */
  snapshots: Snapshot[];
};
/** An instance snapshot: what a restore or a copy from it brings back. */
export type Snapshot = {
  name: string;
  createdAt: string;
  expiresAt: string;
  stateful: boolean;
  description: string;
  architecture: string;
  ephemeral: boolean;
  profiles: string[];
  config: Record<string, string>;
  devices: Record<string, Record<string, string>>;
  files: Map<string, File>;
};
export type Operation = {
  id: string;
  class: string;
  description: string;
  created_at: string;
  updated_at: string;
  status: string;
  status_code: number;
  resources: Record<string, string[]>;
  metadata: Record<string, unknown>;
  may_cancel: boolean;
  err: string;
  location: string;
  done: Promise<void>;
  /** Internal: the project the operation's events belong to, and its websockets by secret (exec). */
  project: string;
  websockets?: Map<string, (ws: WebSocket) => void>;
};
export type Obj = Record<string, unknown> & { name: string };

export const defaultExtensions = lxd521Extensions;

export class SimStore {
  readonly options: Required<Omit<SimOptions, 'extensions' | 'trustPassword' | 'members' | 'clock'>> & {
    extensions: string[];
    trustPassword?: string;
    members: string[];
  };
  readonly instances = new Map<string, Instance>();
  readonly networks = new Map<string, Obj>();
  readonly acls = new Map<string, Obj>();
  readonly forwards = new Map<string, Obj>();
  readonly profiles = new Map<string, Obj>();
  readonly projects = new Map<string, Obj>();
  readonly pools = new Map<string, Obj>();
  readonly volumes = new Map<string, Obj>();
  readonly images = new Map<string, Obj>();
  readonly aliases = new Map<string, Obj>();
  readonly groups = new Map<string, Obj>();
  readonly identities = new Map<string, Obj>();
  readonly certificates = new Map<string, Obj>();
  readonly operations = new Map<string, Operation>();
  readonly logs = new Map<string, string>();
  /** Operation, lifecycle and logging events for /1.0/events listeners. */
  readonly events = new EventHub();
  /** TLS mode: the server certificate, shown in /1.0's environment. */
  serverCertificate: { pem: string; fingerprint: string } | undefined;
  #nextHost = 10;

  /** The store's time. */
  readonly clock: Clock;

  constructor(options: SimOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.options = {
      version: options.version ?? LXD_VERSION,
      extensions: [...(options.extensions ?? defaultExtensions)],
      waitStyle: options.waitStyle ?? '5.20',
      operationMs: options.operationMs ?? 1,
      networkDelayMs: options.networkDelayMs ?? 5,
      trustPassword: options.trustPassword,
      members: [...(options.members ?? [])],
    };
    // The image scripts/lxd-test-env.sh imports as alias busybox, with the same properties.
    const fp = sha256('busybox-image');
    this.images.set(fp, {
      name: fp,
      fingerprint: fp,
      architecture: 'x86_64',
      type: 'container',
      public: false,
      created_at: '2026-01-01T00:00:00Z',
      aliases: [{ name: 'busybox', description: '' }],
      properties: {
        architecture: 'x86_64',
        description: 'converge test image (busybox-static, udhcpc on eth0)',
        os: 'busybox',
        release: 'v1.35.0',
      },
      size: 1024,
    });
    this.aliases.set('default/busybox', { name: 'busybox', description: '', target: fp, type: 'container' });
    this.projects.set('default', {
      name: 'default',
      description: 'Default LXD project',
      config: {
        'features.images': 'true',
        'features.networks': 'true',
        'features.profiles': 'true',
        'features.storage.volumes': 'true',
      },
    });
    this.pools.set('default', {
      name: 'default',
      description: '',
      driver: 'dir',
      status: 'Created',
      config: { source: '/var/lib/lxd/storage-pools/default' },
      locations: ['none'],
    });
    this.networks.set('default/convergebr0', {
      name: 'convergebr0',
      description: '',
      type: 'bridge',
      managed: true,
      status: 'Created',
      config: { 'ipv4.address': '198.18.0.1/24', 'ipv4.nat': 'false', 'ipv4.routing': 'false', 'ipv6.address': 'none' },
      locations: ['none'],
    });
    this.profiles.set('default/default', this.defaultProfile());
  }

  defaultProfile(): Obj {
    return {
      name: 'default',
      description: 'Default LXD profile',
      config: {},
      devices: {
        eth0: { name: 'eth0', network: 'convergebr0', type: 'nic' },
        root: { path: '/', pool: 'default', type: 'disk' },
      },
    };
  }

  get clustered(): boolean {
    return this.options.members.length > 0;
  }

  hasExtension(name: string): boolean {
    return this.options.extensions.includes(name);
  }

  nextHostIndex(): number {
    const n = this.#nextHost;
    this.#nextHost = n >= 250 ? 10 : n + 1;
    return n;
  }

  /**
   * Starts an operation; `run` does the work and may throw to fail it (its message becomes `err`).
   * Its creation and its end are sent as operation events to the project's listeners.
   */
  operation(
    description: string,
    resources: Record<string, string[]>,
    run: (op: Operation) => void | Promise<void>,
    opts: { cls?: string; project?: string } = {},
  ): Operation {
    const now = new Date().toISOString();
    const op: Operation = {
      id: randomUUID(),
      class: opts.cls ?? 'task',
      description,
      created_at: now,
      updated_at: now,
      status: 'Running',
      status_code: 103,
      resources,
      metadata: {},
      may_cancel: false,
      err: '',
      location: 'none',
      done: Promise.resolve(),
      project: opts.project ?? 'default',
    };
    op.done = new Promise<void>((resolve) => {
      setTimeout(async () => {
        try {
          await run(op);
          op.status = 'Success';
          op.status_code = 200;
        } catch (error) {
          op.status = 'Failure';
          op.status_code = 400;
          op.err = (error as Error).message;
        }
        op.updated_at = new Date().toISOString();
        this.events.emit('operation', op.project, opView(op));
        resolve();
      }, this.options.operationMs);
    });
    this.operations.set(op.id, op);
    this.events.emit('operation', op.project, opView(op));
    return op;
  }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The ETag of an object: a quoted hash of its writable view. */
export function etagOf(value: unknown): string {
  return `"${sha256(JSON.stringify(value))}"`;
}

/** Key of a project-scoped object. */
export function scoped(project: string | null | undefined, name: string): string {
  return `${project || 'default'}/${name}`;
}

/** The public view of an operation (without the internal promise). */
export function opView(op: Operation): Omit<Operation, 'done' | 'project' | 'websockets'> {
  const { done: _done, project: _project, websockets: _ws, ...rest } = op;
  return { ...rest, metadata: { ...rest.metadata }, resources: { ...rest.resources } };
}
