// The wire facts the lxc client relies on, checked on the fake LXD directly: one emulated version
// (5.21.0 with its extension list), GET /, the events websocket and its project/type filters, the
// operations list, /wait with a timeout, exec websockets guarded by their secrets, relative file
// paths, the image alias list, custom volume creation under /volumes/custom, and /1.0/cluster.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startSimulator, type LxdSimulator } from '../../../src/providers/a/simulator/index.js';

type Envelope = { type: string; status_code: number; error_code: number; metadata: any; operation: string };

let sim: LxdSimulator;
beforeEach(async () => {
  sim = await startSimulator({ operationMs: 1 });
});
afterEach(async () => {
  await sim.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Envelope }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.status, json: (await res.json()) as Envelope };
}

/** Opens a websocket and collects its JSON messages. */
async function listen(path: string): Promise<{ ws: WebSocket; messages: any[] }> {
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}${path}`);
  const messages: any[] = [];
  ws.on('message', (m) => messages.push(JSON.parse(m.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, messages };
}

async function launch(name: string, project = 'default'): Promise<Envelope> {
  const q = project === 'default' ? '' : `?project=${project}`;
  const made = await call('POST', `/1.0/instances${q}`, { name, source: { type: 'image', alias: 'busybox' } });
  return (await call('GET', `${made.json.operation}/wait?timeout=10`)).json;
}

describe('the fake LXD on the wire lxc speaks', () => {
  it('emulates LXD 5.21.0 with its 380 API extensions, access_management among them', async () => {
    const { json } = await call('GET', '/1.0');
    expect(json.metadata.environment.server_version).toBe('5.21.0');
    expect(json.metadata.api_extensions).toHaveLength(380);
    expect(json.metadata.api_extensions).toEqual(
      expect.arrayContaining([
        'network_state',
        'network_leases',
        'resources_v2',
        'access_management',
        'instance_get_full',
      ]),
    );
  });

  it('answers GET / with the supported API versions', async () => {
    expect((await call('GET', '/')).json.metadata).toEqual(['/1.0']);
  });

  it('sends operation and lifecycle events to listeners of the project, and to all-projects listeners', async () => {
    await call('POST', '/1.0/projects', { name: 'lxcfake-p' });
    const own = await listen('/1.0/events?project=lxcfake-p');
    const other = await listen('/1.0/events?project=default&type=operation');
    const all = await listen('/1.0/events?all-projects=true&type=lifecycle');
    const done = await launch('lxcfake-c1', 'lxcfake-p');
    expect(done.metadata.status).toBe('Success');
    await vi.waitFor(() => expect(own.messages.filter((m) => m.type === 'operation')).toHaveLength(2));
    await vi.waitFor(() => expect(all.messages).toHaveLength(1));
    expect(own.messages.filter((m) => m.type === 'operation').map((m) => m.metadata.status)).toEqual([
      'Running',
      'Success',
    ]);
    expect(own.messages.every((m) => m.project === 'lxcfake-p')).toBe(true);
    expect(other.messages).toEqual([]);
    expect(all.messages.map((m) => [m.metadata.action, m.metadata.source])).toEqual([
      ['instance-created', '/1.0/instances/lxcfake-c1?project=lxcfake-p'],
    ]);
    for (const l of [own, other, all]) l.ws.close();
  });

  it('lists operations by status, recursively or as URLs, within the project', async () => {
    const done = await launch('lxcfake-c1');
    const { json } = await call('GET', '/1.0/operations');
    expect(json.metadata).toEqual({ success: [`/1.0/operations/${done.metadata.id}`] });
    expect((await call('GET', '/1.0/operations?recursion=1')).json.metadata.success[0].id).toBe(done.metadata.id);
    expect((await call('GET', '/1.0/operations?project=lxcfake-none')).json.metadata).toEqual({});
  });

  it('returns from /wait when the timeout passes with the operation still running', async () => {
    await sim.close();
    sim = await startSimulator({ operationMs: 60_000 });
    const made = await call('POST', '/1.0/instances', {
      name: 'lxcfake-c1',
      source: { type: 'image', alias: 'busybox' },
    });
    const waited = await call('GET', `${made.json.operation}/wait?timeout=0`);
    expect(waited.status).toBe(200);
    expect(waited.json.type).toBe('error');
    expect((await call('GET', made.json.operation)).json.metadata.status).toBe('Running');
  });

  it("refuses an exec websocket whose secret is not the operation's", async () => {
    await launch('lxcfake-c1');
    await call('PUT', '/1.0/instances/lxcfake-c1/state', { action: 'start' }).then((r) =>
      call('GET', `${r.json.operation}/wait`),
    );
    const exec = await call('POST', '/1.0/instances/lxcfake-c1/exec', {
      command: ['echo', 'hi'],
      'wait-for-websocket': true,
      interactive: false,
    });
    expect(Object.keys(exec.json.metadata.metadata.fds).sort()).toEqual(['0', '1', '2', 'control']);
    const refused = await listen(`${exec.json.operation}/websocket?secret=wrong`).then(
      () => 'open',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/403/);
  });

  it('reads and deletes files by a path relative to the instance root, as LXD does', async () => {
    await launch('lxcfake-c1');
    const put = await fetch(`${sim.url}/1.0/instances/lxcfake-c1/files?path=tmp/lxcfake.txt`, {
      method: 'POST',
      body: 'x\n',
      headers: { 'x-lxd-type': 'file' },
    });
    expect(put.status).toBe(200);
    const got = await fetch(`${sim.url}/1.0/instances/lxcfake-c1/files?path=tmp/lxcfake.txt`);
    expect([got.status, await got.text()]).toEqual([200, 'x\n']);
    expect((await call('DELETE', '/1.0/instances/lxcfake-c1/files?path=tmp/lxcfake.txt')).status).toBe(200);
    expect((await fetch(`${sim.url}/1.0/instances/lxcfake-c1/files?path=/tmp/lxcfake.txt`)).status).toBe(404);
  });

  it('lists image aliases apart from the single-image route', async () => {
    expect((await call('GET', '/1.0/images/aliases')).json.metadata).toEqual(['/1.0/images/aliases/busybox']);
    expect((await call('GET', '/1.0/images/aliases?recursion=1')).json.metadata[0]).toMatchObject({
      name: 'busybox',
      type: 'container',
    });
  });

  it('creates custom volumes posted to /volumes/custom', async () => {
    const made = await call('POST', '/1.0/storage-pools/default/volumes/custom', { name: 'lxcfake-vol', config: {} });
    expect(made.status).toBe(201);
    expect((await call('GET', '/1.0/storage-pools/default/volumes/custom/lxcfake-vol')).json.metadata).toMatchObject({
      name: 'lxcfake-vol',
      type: 'custom',
      project: 'default',
    });
  });

  it('answers /1.0/cluster as a standalone server', async () => {
    expect((await call('GET', '/1.0/cluster')).json.metadata).toMatchObject({ enabled: false, server_name: '' });
  });
});
