// Validates plan files against the published schema (schema/plan.v1.json) with ajv.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { expect } from 'vitest';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/plan.v1.json', import.meta.url)), 'utf8'));
// generated code not optimised: the same checks, compiled for a fraction of the CPU
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, code: { optimize: false } });
const validate = ajv.compile(schema);
const validatePlan = ajv.getSchema(`${schema.$id}#/definitions/plan`)!;

/** The published schema itself (to compare the fields it describes with the code's lists). */
export const planFileSchema = schema as {
  definitions: Record<string, { properties: Record<string, unknown>; required?: string[] }>;
};

/** Fails the test when the plan file text does not match schema/plan.v1.json. */
export function expectValidPlanFile(text: string): void {
  const ok = validate(JSON.parse(text));
  expect(ok ? [] : validate.errors).toEqual([]);
}

/** Fails the test when a plan's JSON (`plan.toJSON()`) does not match the schema's `plan` definition. */
export function expectValidPlanJSON(json: unknown): void {
  const ok = validatePlan(JSON.parse(JSON.stringify(json)));
  expect(ok ? [] : validatePlan.errors).toEqual([]);
}
