// The one way a reference becomes a value, used by plan, apply and import. `resolveRefs` walks a
// declaration's inputs and asks `lookup` for each reference; `valueOfRecord` is what a reference
// means against a recorded object, so plan (against the prior object) and apply (against the object
// just made) give the same value for the same record.
import { isRef, type Ref } from './ref.js';
import type { ResourceState } from '../../state/model.js';
import { getPath, type PathSegment } from '../values/path.js';

/** A copy of `value` with every reference replaced by `lookup(ref)`; the same value when it holds none. */
export function resolveRefs(value: unknown, lookup: (ref: Ref) => unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isRef(value)) return lookup(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = resolveRefs(value[i], lookup);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(value)) {
    const before = (value as Record<string, unknown>)[k];
    const v = resolveRefs(before, lookup);
    if (v !== before) {
      out ??= { ...(value as Record<string, unknown>) };
      Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
    }
  }
  return out ?? value;
}

/**
 * What `ref(name, path)` means against a recorded object: the output at `path`, else the input.
 * `id` is the output named id when the object has one (Gcore's numeric ids), else the state's id:
 * the same rule at plan and at apply, so a value never changes type between the two.
 */
export function valueOfRecord(record: Pick<ResourceState, 'id' | 'inputs' | 'outputs'>, path: readonly PathSegment[]): unknown {
  if (path.length === 1 && path[0] === 'id') return record.outputs.id !== undefined ? record.outputs.id : record.id;
  const out = getPath(record.outputs, path);
  return out !== undefined ? out : getPath(record.inputs, path);
}
