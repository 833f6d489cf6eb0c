// `converge simulator b` keeps the Civo simulator running across commands: it prints the endpoint
// and token, answers with them, and stops on Ctrl-C (SIGINT) with exit 0.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { bin, repo } from './run.js';

describe('converge simulator', () => {
  it('b: prints the endpoint and token, serves until Ctrl-C, then exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'simulator', 'b'], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1', CONVERGE_CLI_FROM_SOURCE: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => out + err, { timeout: 45_000, interval: 100 }).toContain('Running until Ctrl-C.');
    const url = /Civo simulator on (\S+)/.exec(out)![1]!;
    const token = /token: (\S+)/.exec(out)![1]!;
    expect(out).toContain(`provb({ apiEndpoint: '${url}', token: '${token}', region: 'LON1' })`);
    const r = await request(`${url}/v2/regions`, { headers: { authorization: `bearer ${token}` } });
    expect(r.statusCode).toBe(200);
    await r.body.text();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('Simulator stopped.');
  }, 90_000);
});
