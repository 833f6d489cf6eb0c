// The fleet's event channel: events are published with pg_notify (inside the caller's transaction
// when there is one, so a run_queued event goes out only if the run was queued) and received on one
// LISTEN connection per process, opened when the first listener subscribes. Control messages
// (cancel a running run) travel on the same channel, marked, and never reach listeners.
import type pg from 'pg';
import type { EventInput, FleetEvent, FleetEventListener } from './events.js';

/** A message between fleet processes that is not an event. */
export type ControlMessage = { readonly control: 'cancel'; readonly runId: string };

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export class EventHub {
  readonly #listeners = new Set<FleetEventListener>();
  readonly #controls = new Set<(m: ControlMessage) => void>();
  #client: Promise<pg.PoolClient> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
  ) {}

  /** Publishes on the channel (through `db`, e.g. a transaction's client, when given). */
  async publish(event: EventInput | ControlMessage, db: Queryable = this.pool): Promise<void> {
    const payload = 'control' in event ? event : { ...event, at: new Date().toISOString() };
    await db.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(payload)]);
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

  async close(): Promise<void> {
    const c = this.#client;
    this.#client = undefined;
    this.#listeners.clear();
    this.#controls.clear();
    if (!c) return;
    const client = await c.catch(() => undefined);
    if (!client) return;
    await client.query('UNLISTEN *').catch(() => {});
    client.release();
  }

  #listen(): Promise<pg.PoolClient> {
    this.#client ??= (async () => {
      const c = await this.pool.connect();
      c.on('notification', (m) => {
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
      await c.query(`LISTEN "${this.channel}"`);
      return c;
    })();
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }
}
