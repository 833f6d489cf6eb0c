// The demo end to end, against the simulators and the LXD fake (and against the local LXD daemon
// too when its socket is there): each phase's plan summary, what it printed, and that it cleaned up.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../../examples/demo.js';
import { lxdSocketPath } from '../../examples/demo-lxd.js';

const none = { create: 0, update: 0, replace: 0, delete: 0, forget: 0 };

function collect() {
  const chunks: string[] = [];
  return {
    stream: {
      write: (s: string) => {
        chunks.push(s);
        return true;
      },
    },
    text: () => chunks.join(''),
  };
}

const demoDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith('converge-demo-'));

describe('npm run demo', () => {
  it('plans, applies, replans to nothing, repairs a drift and destroys, against the simulators and the LXD fake', async () => {
    const before = demoDirs();
    const out = collect();
    const result = await runDemo({ out: out.stream, useRealLxd: false });
    expect(result.lxd).toBe('fake');
    expect(result.phases.plan).toMatchObject({ ...none, create: 10 });
    expect(result.phases.replan).toMatchObject({ ...none, noop: 10 });
    expect(result.phases.drift).toMatchObject({ ...none, update: 2, noop: 8 });
    expect([...result.drifted].sort()).toEqual(['app-record', 'team']);
    expect(result.phases.repaired).toMatchObject({ ...none, noop: 10 });
    expect(result.phases.destroy).toMatchObject({ ...none, delete: 10 });
    expect(result.elapsedMs).toBeLessThan(30_000);

    const text = out.text();
    expect(text).toContain('the in-process LXD fake');
    expect(text).toContain('Plan: 10 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(text).toContain('No changes. Your infrastructure matches the configuration.');
    expect(text).toContain('~ "user.team" = "changed-by-hand" -> "demo"');
    expect(text).toMatch(/~ value = "203\.0\.113\.66" -> "198\.18\.0\.\d+"/);
    expect(text).toContain('Apply complete! Resources: 10 added, 0 changed, 0 replaced, 0 destroyed.');
    expect(text).toContain('Apply complete! Resources: 0 added, 2 changed, 0 replaced, 0 destroyed.');
    expect(text).toContain('Plan: 0 to add, 0 to change, 0 to replace, 10 to destroy.');
    expect(text).toContain('Destroy complete! Resources: 0 added, 0 changed, 0 replaced, 10 destroyed.');
    expect(text).not.toContain('\x1b[');
    expect(demoDirs()).toEqual(before);
  });

  it('cleans up after a failure: nothing left in the temporary directory', async () => {
    const before = demoDirs();
    const out = collect();
    await expect(runDemo({ out: out.stream, useRealLxd: false, failAt: 'drift' })).rejects.toThrow(
      'failing on purpose',
    );
    expect(demoDirs()).toEqual(before);
  });

  it.skipIf(!existsSync(lxdSocketPath()))(
    'deletes its container on the local LXD daemon even when a phase fails',
    async () => {
      const out = collect();
      await expect(runDemo({ out: out.stream, useRealLxd: true, failAt: 'drift' })).rejects.toThrow(
        'failing on purpose',
      );
      const name = /container (converge-demo-[0-9a-f]+)/.exec(out.text())![1]!;
      const { execFileSync } = await import('node:child_process');
      expect(execFileSync('lxc', ['list', name, '--format', 'csv', '-c', 'n'], { encoding: 'utf8' }).trim()).toBe('');
      expect(execFileSync('lxc', ['profile', 'list', '--format', 'csv'], { encoding: 'utf8' })).not.toContain(
        `${name}-team`,
      );
    },
  );

  it.skipIf(!existsSync(lxdSocketPath()))(
    'runs against the local LXD daemon when it is usable, and deletes its container',
    async () => {
      const out = collect();
      const result = await runDemo({ out: out.stream, useRealLxd: true });
      expect(result.lxd).toBe('real');
      expect(result.phases.plan.create).toBe(10);
      expect(result.phases.replan).toMatchObject({ ...none, noop: 10 });
      expect(result.phases.destroy.delete).toBe(10);
      expect(out.text()).toMatch(/has IPv4 198\.18\.0\.\d+/);
      const name = /container (converge-demo-[0-9a-f]+)/.exec(out.text())![1]!;
      const { execFileSync } = await import('node:child_process');
      expect(execFileSync('lxc', ['list', name, '--format', 'csv', '-c', 'n'], { encoding: 'utf8' }).trim()).toBe('');
      expect(execFileSync('lxc', ['profile', 'list', '--format', 'csv'], { encoding: 'utf8' })).not.toContain(
        `${name}-team`,
      );
    },
  );
});
