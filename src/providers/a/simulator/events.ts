// The fake LXD's event stream: operation, lifecycle and logging events fanned out to /1.0/events
// websocket listeners, filtered by project (`?project=`, or every project with `?all-projects=true`)
// and by `?type=`, in the daemon's envelope {type, timestamp, metadata, location, project}. An event
// with no project reaches every listener, as on the daemon.
import { WebSocketServer, type WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export type EventType = 'operation' | 'lifecycle' | 'logging';
export type LxdEvent = {
  readonly type: EventType;
  readonly timestamp: string;
  readonly metadata: unknown;
  readonly location: string;
  readonly project?: string;
};
type Listener = {
  readonly project: string;
  readonly allProjects: boolean;
  readonly types: ReadonlySet<string>;
  readonly send: (event: LxdEvent) => void;
};
export type Upgrade = { readonly raw: IncomingMessage; readonly socket: Duplex; readonly head: Buffer };

export class EventHub {
  readonly #listeners = new Set<Listener>();
  readonly #wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  /** Every event sent, oldest first (tests read it; capped so a long run does not grow without bound). */
  readonly sent: LxdEvent[] = [];

  /** Completes a websocket handshake on an upgraded request. */
  accept(upgrade: Upgrade): Promise<WebSocket> {
    return new Promise((resolve) => this.#wss.handleUpgrade(upgrade.raw, upgrade.socket, upgrade.head, resolve));
  }

  /** Adds a listener until its socket closes. */
  listen(ws: WebSocket, query: URLSearchParams): void {
    const types = new Set(
      (query.get('type') ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    );
    const listener: Listener = {
      project: query.get('project') || 'default',
      allProjects: query.get('all-projects') === 'true',
      types,
      send: (event) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
      },
    };
    this.#listeners.add(listener);
    ws.on('close', () => this.#listeners.delete(listener));
    ws.on('error', () => this.#listeners.delete(listener));
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  emit(type: EventType, project: string, metadata: unknown): void {
    const event: LxdEvent = {
      type,
      timestamp: new Date().toISOString(),
      metadata,
      location: 'none',
      ...(project ? { project } : {}),
    };
    this.sent.push(event);
    if (this.sent.length > 1000) this.sent.splice(0, this.sent.length - 1000);
    for (const l of this.#listeners) {
      if (l.types.size && !l.types.has(type)) continue;
      if (project && !l.allProjects && l.project !== project) continue;
      l.send(event);
    }
  }

  /** A lifecycle event such as instance-started on /1.0/instances/c1 (with ?project= outside default). */
  lifecycle(action: string, source: string, project: string, context: Record<string, unknown> = {}): void {
    const src = project && project !== 'default' ? `${source}?project=${encodeURIComponent(project)}` : source;
    this.emit('lifecycle', project, {
      action,
      source: src,
      context,
      requestor: { username: 'sim', protocol: 'tls', address: '127.0.0.1' },
    });
  }
}
