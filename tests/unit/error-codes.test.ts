// Failures that were bare ConvergeErrors with code CONVERGE_ERROR have a class, a code and facts:
// a refresh whose reads failed (RefreshError) and a step whose inputs cannot be made at apply
// (UnresolvedInputsError). The command's advice goes by the code.
import { describe, expect, it } from 'vitest';
import { ConvergeError, RefreshError, UnresolvedInputsError } from 'converge';
import { refreshFailure } from '../../src/engine/refresh/read-all.js';
import { renderError } from '../../src/cli/advice.js';

describe('UnresolvedInputsError', () => {
  it.each([
    [['web', 'not-in-state', 'db'], "web: the referenced resource 'db' is not in the state (its step did not run)."],
    [
      ['web', 'invalid', 'size', 'Invalid enum value'],
      'web: inputs are invalid once references are known: size: Invalid enum value',
    ],
    [['web', 'unknown'], 'web: an input is still unknown at apply time.'],
  ] as const)('%j', (args, message) => {
    const e = new UnresolvedInputsError(...(args as unknown as ConstructorParameters<typeof UnresolvedInputsError>));
    expect(e).toBeInstanceOf(ConvergeError);
    expect([e.code, e.name, e.address, e.reason, e.message]).toEqual([
      'CONVERGE_UNRESOLVED_INPUTS',
      'UnresolvedInputsError',
      'web',
      args[1],
      message,
    ]);
  });
});

describe('RefreshError', () => {
  it.each([
    [[{ address: 'a', error: new Error('503 busy\nmore') }], 'Refreshing 1 resource failed, first a: 503 busy'],
    [
      [
        { address: 'a', error: new Error('reset') },
        { address: 'b', error: new Error('timeout') },
      ],
      'Refreshing 2 resources failed, first a: reset',
    ],
  ])('names every failed read (%#)', (failures, first) => {
    const e = refreshFailure(failures);
    expect(e).toBeInstanceOf(RefreshError);
    expect(e.code).toBe('CONVERGE_REFRESH');
    expect(e.failures).toEqual(failures.map((f) => ({ address: f.address, message: f.error.message.split('\n')[0] })));
    expect(e.cause).toBe(failures[0]!.error);
    expect(e.message.split('\n')[0]).toBe(first);
    expect(renderError(e)).toContain('--no-refresh');
  });
});
