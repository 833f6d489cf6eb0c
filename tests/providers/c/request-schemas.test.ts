// The committed request schemas (src/providers/c/simulator/request-schemas.ts) are what the
// generator makes from Gcore's OpenAPI specs and the simulator's route table: a route added or a
// spec updated without running scripts/gen-gcore-request-schemas.ts fails here.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gcoreRoutes } from '../../../src/providers/c/simulator/routes.js';
import { REQUEST_SCHEMAS } from '../../../src/providers/c/simulator/request-schemas.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SPECS = new URL('../../../../shared/specs/gcore/', import.meta.url).pathname;

describe('the generated Gcore request schemas', () => {
  it('have an entry for every route of the simulator, and none for a route it does not have', () => {
    const routes = gcoreRoutes().map((r) => `${r.method} ${r.path}`);
    expect(Object.keys(REQUEST_SCHEMAS).sort()).toEqual([...routes].sort());
  });

  it.skipIf(!existsSync(SPECS))(
    'are what the generator makes from the specs (--check)',
    () => {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/gen-gcore-request-schemas.ts', '--specs', SPECS, '--check'],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(out).toContain('is current');
    },
    60_000,
  );
});
