// `converge plan` against a dead endpoint: the plan-time credential check fails within 15 s, each
// retry is a line on stderr as it happens, and the error says to check the endpoint.
import { describe, expect, it } from 'vitest';
import { converge, simEnv } from './run.js';

describe('converge plan against a dead endpoint', () => {
  it('fails within 15 s with one line per retry and advice about the endpoint', async () => {
    const { sim, env } = await simEnv();
    await sim.close();
    const started = Date.now();
    const r = await converge(['plan'], env);
    expect(Date.now() - started).toBeLessThan(15_000 + 5_000); // the check's 15 s, plus starting node and tsx
    expect(r.code).toBe(1);
    const retries = r.stderr.split('\n').filter((l) => l.includes('↻ retry'));
    expect(retries).toHaveLength(3);
    expect(retries[0]).toMatch(/↻ retry 1\/3 of verify provb in \d+\.\ds after no answer: provb: list regions failed/);
    expect(r.stderr).toContain("No answer came from provb's endpoint");
  }, 60_000);
});
