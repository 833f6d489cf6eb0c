// Validates plan files against the published schema (schema/plan.v1.json) with ajv.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { expect } from 'vitest';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/plan.v1.json', import.meta.url)), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(schema);

/** Fails the test when the plan file text does not match schema/plan.v1.json. */
export function expectValidPlanFile(text: string): void {
  const ok = validate(JSON.parse(text));
  expect(ok ? [] : validate.errors).toEqual([]);
}
