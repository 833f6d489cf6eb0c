// The fleet's event channel: events are published with pg_notify (inside the caller's transaction
// when there is one, so a run_queued event goes out only if the run was queued) and received on one
// LISTEN connection per process, opened when the first listener subscribes, which also carries the
// job queue's LISTEN (one connection held for both, not two). Control messages (cancel a running
// run) travel on the same channel, marked, and never reach listeners. A lost LISTEN connection is
// made again a second later, its channels listened to again.
import type pg from 'pg';
import type { EventInput, FleetEvent, FleetEventListener } from './events.js';

/** A message between fleet processes that is not an event. */
export type ControlMessage =
  | { readonly control: 'cancel'; readonly runId: string }
  /** Runs became ready without being queued (a stack or the fleet resumed): idle workers look. */
  | { readonly control: 'wake' };

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export class EventHub {
  readonly #listeners = new Set<FleetEventListener>();
  readonly #controls = new Set<(m: ControlMessage) => void>();
  /** Other channels on the same connection (the job queue's): their handlers and what to do after a reconnect. */
  readonly #channels = new Map<string, { notify: (payload: string) => void; reconnected: () => void }>();
  #client: Promise<pg.PoolClient> | undefined;
  #closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
  ) {}

  /** Publishes on the channel (through `db`, e.g. a transaction's client, when given). */
  async publish(event: EventInput | ControlMessage, db: Queryable = this.pool): Promise<void> {
    await db.query('SELECT pg_notify($1, $2)', this.message(event));
  }

  /** The channel and payload of `event`, for a statement that sends it with pg_notify itself. */
  message(event: EventInput | ControlMessage): [channel: string, payload: string] {
    const payload = 'control' in event ? event : { ...event, at: new Date().toISOString() };
    return [this.channel, JSON.stringify(payload)];
  }

  /** Delivers an event of this process only (a wait, a queue error) to this process's listeners. */
  local(event: EventInput): void {
    const e = { ...event, at: new Date().toISOString() } as FleetEvent;
    for (const l of this.#listeners) l(e);
  }

  async on(listener: FleetEventListener): Promise<() => void> {
    this.#listeners.add(listener);
    await this.#listen();
    return () => this.#listeners.delete(listener);
  }

  async onControl(handler: (m: ControlMessage) => void): Promise<() => void> {
    this.#controls.add(handler);
    await this.#listen();
    return () => this.#controls.delete(handler);
  }

  /** LISTENs to another channel on this hub's connection (pg-boss's); the returned function stops it. */
  async listenTo(
    channel: string,
    notify: (payload: string) => void,
    reconnected: () => void,
  ): Promise<() => Promise<void>> {
    this.#channels.set(channel, { notify, reconnected });
    const c = await this.#listen();
    await c.query(`LISTEN ${quoted(channel)}`);
    reconnected();
    return async () => {
      if (!this.#channels.delete(channel)) return;
      const live = await this.#client?.catch(() => undefined);
      if (live === c) await c.query(`UNLISTEN ${quoted(channel)}`).catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const c = this.#client;
    this.#client = undefined;
    this.#listeners.clear();
    this.#controls.clear();
    this.#channels.clear();
    if (!c) return;
    const client = await c.catch(() => undefined);
    if (!client) return;
    await client.query('UNLISTEN *').catch(() => {});
    client.release();
  }

  #listen(): Promise<pg.PoolClient> {
    this.#client ??= (async () => {
      const c = await this.pool.connect();
      // the connection lost (the server restarted, the session ended): dropped, and made again while anyone listens
      c.on('error', () => {
        void this.#client?.then((live) => {
          if (live !== c) return;
          this.#client = undefined;
          c.release(true);
          if (!this.#closed) setTimeout(() => void this.#relisten(), 1000).unref();
        });
      });
      c.on('notification', (m) => {
        const other = this.#channels.get(m.channel);
        if (other) {
          if (m.payload !== undefined) other.notify(m.payload);
          return;
        }
        if (m.channel !== this.channel || !m.payload) return;
        let msg: FleetEvent | ControlMessage;
        try {
          msg = JSON.parse(m.payload) as FleetEvent | ControlMessage;
        } catch {
          return;
        }
        if ('control' in msg) for (const h of this.#controls) h(msg);
        else for (const l of this.#listeners) l(msg);
      });
      await c.query(`LISTEN ${quoted(this.channel)}`);
      return c;
    })();
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  async #relisten(): Promise<void> {
    if (this.#closed || (this.#listeners.size === 0 && this.#controls.size === 0 && this.#channels.size === 0)) return;
    try {
      const c = await this.#listen();
      for (const [channel, h] of this.#channels) {
        await c.query(`LISTEN ${quoted(channel)}`);
        h.reconnected();
      }
    } catch {
      if (!this.#closed) setTimeout(() => void this.#relisten(), 1000).unref();
    }
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
