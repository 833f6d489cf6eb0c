// engine.import(): what a declaration says about the object it adopts, and the record that adoption
// writes. References resolve against the state; what they cannot resolve is left to the read.
import type { ResourceDecl } from './decl/resource-decl.js';
import type { AnyResource } from './provider/define.js';
import type { ResourceState, State } from '../state/model.js';
import { refReadsSecret, resolveInputs, valueOfRecord } from './decl/resolve.js';
import { collectRefs } from './decl/ref.js';
import { own } from '../state/keys.js';
import { parseWithUnknowns } from './validate/schema.js';
import { isUnknown, unknown } from './values/unknown.js';
import { parsePath } from './values/path.js';
import { secretPathsOf } from './plan/secrets.js';
import { storedOptions } from './plan/options.js';

/** The declaration's inputs as far as the state can resolve them (unknowns left out), and its secret paths. */
export function importDeclared(
  decl: ResourceDecl,
  def: AnyResource,
  state: State,
): { declared: Record<string, unknown>; secrets: string[] } {
  const resolvedInputs = resolveInputs(
    decl.inputs,
    (ref) => {
      const r = own(state.resources, ref.resource);
      return r ? (valueOfRecord(r, parsePath(ref.path)) ?? unknown) : unknown;
    },
    (ref) => refReadsSecret(own(state.resources, ref.resource)?.secrets ?? [], ref.path),
  );
  const parsed = parseWithUnknowns(def.inputs, resolvedInputs.value);
  const secrets = [...new Set([...secretPathsOf(def), ...resolvedInputs.secrets.map((p) => `inputs.${p}`)])];
  return { declared: stripUnknowns(parsed.data) as Record<string, unknown>, secrets };
}

/**
 * The record of an adopted object, with the declaration's options and dependencies, so a destroy
 * after the import deletes in the right order and honours protect.
 */
export function importedRecord(
  decl: ResourceDecl,
  provider: string,
  id: string,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  secrets: string[],
  at: string,
): ResourceState {
  return {
    type: decl.type,
    name: decl.name,
    provider,
    id,
    inputs,
    outputs,
    dependencies: [
      ...new Set([...collectRefs(decl.inputs).map((r) => r.ref.resource), ...(decl.options?.dependsOn ?? [])]),
    ].filter((n) => n !== decl.name),
    options: storedOptions(decl.options),
    secrets,
    createdAt: at,
    updatedAt: at,
  };
}

function stripUnknowns(value: unknown): unknown {
  if (isUnknown(value)) return undefined;
  if (Array.isArray(value)) return value.map(stripUnknowns);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const x = stripUnknowns(v);
      if (x !== undefined) out[k] = x;
    }
    return out;
  }
  return value;
}
