// engine.import(): what a declaration says about the object it adopts, and the record that adoption
// writes. References resolve against the state; what they cannot resolve is left to the read.
import type { ResourceDecl } from '../decl/resource-decl.js';
import type { AnyResource, Provider } from '../provider/define.js';
import { instanceFields } from '../provider/instance.js';
import type { ResourceState, State } from '../../state/model.js';
import { recordSource, resolveDeclared } from '../decl/resolve.js';
import { collectRefs, type Ref } from '../decl/ref.js';
import { own } from '../../state/keys.js';
import { parseWithUnknowns } from '../validate/schema.js';
import { isUnknown, unknown } from '../values/unknown.js';
import { secretPathsOf } from '../provider/secret-paths.js';
import { storedOptions } from '../plan/options.js';
import type { EngineCore } from './core.js';
import type { ImportResult } from '../engine-options.js';
import type { Issue } from '../issue.js';
import { validateStack } from '../validate/validate.js';
import { LookupError, ValidationError } from '../errors.js';
import { Ledger } from '../run/ledger.js';
import { recordResource } from '../../state/ops.js';
import { redactPaths } from '../values/redact.js';
import { strip } from '../plan/secrets.js';
import { publicOutputs } from '../apply/result.js';

/** Adopts the object `id` as `decl`; see Engine.import. */
export async function runImport(core: EngineCore, decl: ResourceDecl, id: string): Promise<ImportResult> {
  const issues: Issue[] = validateStack([decl], core.resolve, { instancesOf: core.instancesOf }).issues.filter(
    (i) => i.code !== 'missing_reference' && i.code !== 'missing_output',
  );
  if (typeof id !== 'string' || !id)
    issues.push({
      resource: decl?.name ?? '',
      path: ['id'],
      code: 'invalid_type',
      message: 'the import id must be a non-empty string',
    });
  if (issues.length) throw new ValidationError(issues);
  const { def, provider } = core.resolve(decl.type, decl.options?.provider)!;
  const lock = await core.lock('import');
  try {
    const state = await core.store.read();
    const { declared, secrets } = importDeclared(decl, def, state);
    const existing = own(state.resources, decl.name);
    if (existing)
      throw new ValidationError([
        {
          resource: decl.name,
          path: [],
          code: 'duplicate_name',
          message: `'${decl.name}' is already in the state (id ${existing.id}); remove it from the state or import under another name`,
        },
      ]);
    let realId = id;
    if (def.importId) {
      try {
        realId = def.importId(id, provider.config);
      } catch (error) {
        throw new ValidationError([
          { resource: decl.name, path: ['id'], code: 'invalid_value', message: (error as Error).message },
        ]);
      }
    }
    const read = await def.read(core.context(provider, decl.name, decl.type, 'import'), realId, {
      inputs: declared,
      outputs: {},
    });
    if (!read) throw new LookupError(decl.type, 'not_found', [], `import id '${id}'`);
    const at = new Date(core.now()).toISOString();
    const inputs = { ...declared, ...read.inputs };
    const resource = importedRecord(decl, provider, read.id ?? realId, inputs, read.outputs, secrets, at);
    const ledger = new Ledger(state, core.store);
    // An unresolved create of this name is resolved by the import.
    const pendingCreate = Object.values(state.pending).find((p) => p.kind === 'create' && p.name === decl.name);
    await ledger.commit((s) => recordResource(s, resource, pendingCreate?.id));
    await core.store.compact();
    return {
      address: decl.name,
      id: resource.id,
      inputs: redactPaths(resource.inputs, strip('inputs.', resource.secrets)) as Record<string, unknown>,
      outputs: publicOutputs({ resources: { [decl.name]: resource } } as unknown as State)[decl.name]!,
    };
  } finally {
    await lock.release();
  }
}

/** The declaration's inputs as far as the state can resolve them (unknowns left out), and its secret paths. */
function importDeclared(
  decl: ResourceDecl,
  def: AnyResource,
  state: State,
): { declared: Record<string, unknown>; secrets: string[] } {
  // A reference to what the state does not record (or to a value it holds as null or not at all) is unknown here.
  const recorded = recordSource(
    (name) => own(state.resources, name),
    () => unknown,
  );
  const source = { ...recorded, valueOf: (ref: Ref) => recorded.valueOf(ref) ?? unknown };
  const resolved = resolveDeclared(decl.inputs, source, secretPathsOf(def));
  const parsed = parseWithUnknowns(def.inputs, resolved.value);
  return { declared: stripUnknowns(parsed.data) as Record<string, unknown>, secrets: [...resolved.secrets] };
}

/**
 * The record of an adopted object, with the declaration's options and dependencies, so a destroy
 * after the import deletes in the right order and honours protect.
 */
function importedRecord(
  decl: ResourceDecl,
  provider: Provider<unknown>,
  id: string,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
  secrets: string[],
  at: string,
): ResourceState {
  return {
    type: decl.type,
    name: decl.name,
    provider: provider.name,
    ...instanceFields(provider),
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
