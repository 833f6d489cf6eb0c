// src/state/commit-queue.ts: the stores' one order — calls run one at a time in call order, runs of
// consecutive commits reach the store together (at most maxGroup), a failed call does not stop the queue.
import { describe, expect, it } from 'vitest';
import { CommitQueue, type QueuedCommit } from '../../src/state/commit-queue.js';
import type { StateChange } from '../../src/state/patch.js';

const change = (serial: number): StateChange => ({ baseSerial: serial - 1, serial, patches: [] }) as StateChange;

function queue(maxGroup?: number) {
  const log: string[] = [];
  let errors = 0;
  const q = new CommitQueue({
    maxGroup,
    onError: () => errors++,
    commitGroup: async (group: QueuedCommit[]) => {
      await Promise.resolve();
      log.push(`commit ${group.map((t) => t.change.serial).join(',')}`);
      for (const t of group) t.done.resolve();
    },
  });
  return { q, log, errors: () => errors };
}

describe('CommitQueue', () => {
  it('runs calls in call order and hands consecutive commits over as one group', async () => {
    const { q, log } = queue();
    const slow = q.run(async () => {
      await new Promise((r) => setImmediate(r));
      log.push('read');
      return 'state';
    });
    const commits = [1, 2, 3].map((n) => q.commit(change(n)));
    const write = q.run(async () => void log.push('write'));
    const more = [4, 5].map((n) => q.commit(change(n)));
    expect(await slow).toBe('state');
    await Promise.all([...commits, write, ...more]);
    expect(log).toEqual(['read', 'commit 1,2,3', 'write', 'commit 4,5']);
  });

  it('cuts a run of commits into groups of at most maxGroup', async () => {
    const { q, log } = queue(2);
    // The first commit starts the queue alone; the four queued while it is written go two by two.
    await Promise.all([1, 2, 3, 4, 5].map((n) => q.commit(change(n))));
    expect(log).toEqual(['commit 1', 'commit 2,3', 'commit 4,5']);
  });

  it('rejects a failed call, tells the store, and goes on with the next', async () => {
    const { q, log, errors } = queue();
    const failed = q.run(() => Promise.reject(new Error('disk gone')));
    const next = q.commit(change(1));
    await expect(failed).rejects.toThrow('disk gone');
    await next;
    expect(errors()).toBe(1);
    expect(log).toEqual(['commit 1']);
  });

  it('drained() waits for everything queued so far', async () => {
    const { q, log } = queue();
    void q.commit(change(1));
    void q.run(async () => void log.push('compact'));
    await q.drained();
    expect(log).toEqual(['commit 1', 'compact']);
  });
});
