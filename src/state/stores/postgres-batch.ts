// The PostgreSQL store's group commit: several consecutive changes folded into one statement. Each
// resource or pending row ends as the last change of the group left it (written whole, or deleted),
// so the group costs one statement however many changes it holds; the statement runs only when the
// stack's serial is still the one the group starts from, and raises it to the group's last serial.
import type { StoredItem } from '../crypto.js';
import type { StateChange } from '../patch.js';
import type pg from 'pg';
import type { State } from '../model.js';
import type { Tables } from './postgres-schema.js';

/** What a group of changes leaves behind, row by row. */
type Batch = {
  readonly resources: { readonly upsert: Record<string, unknown>; readonly remove: string[] };
  readonly pending: { readonly upsert: Record<string, unknown>; readonly remove: string[] };
  readonly deposed: { readonly upsert: Record<string, unknown>; readonly remove: string[] };
  readonly outputs: { readonly upsert: Record<string, unknown>; readonly remove: string[] };
  readonly lineage?: string;
  readonly version?: number;
  readonly items: number;
};

type Sealer = (item: StoredItem) => unknown;

/** Throws a TypeError unless every patch is resource-granular (what ops.ts makes). */
export function checkGranular(change: StateChange): void {
  for (const p of change.patches) {
    const [head] = p.path;
    if (p.path.length === 1 && (head === 'serial' || ((head === 'lineage' || head === 'version') && p.op !== 'remove')))
      continue;
    if (p.path.length === 2 && (head === 'resources' || head === 'pending' || head === 'deposed' || head === 'outputs'))
      continue;
    throw new TypeError(
      `Expected resource-granular patches (['resources', name], ['pending', id], ['deposed', key], ['outputs', name], ['serial']), got path [${p.path.join(', ')}]`,
    );
  }
}

/** Folds changes (already checked, in serial order) into the rows they leave, sealing each written item. */
export function batchOf(changes: readonly StateChange[], seal: Sealer): Batch {
  const rows = {
    resources: new Map<string, unknown>(),
    pending: new Map<string, unknown>(),
    deposed: new Map<string, unknown>(),
    outputs: new Map<string, unknown>(),
  };
  let lineage: string | undefined;
  let version: number | undefined;
  let items = 0;
  for (const c of changes) {
    for (const p of c.patches) {
      const [head, key] = p.path;
      if (head === 'serial') continue;
      if (head === 'lineage') {
        lineage = String(p.value);
        continue;
      }
      if (head === 'version') {
        version = Number(p.value);
        continue;
      }
      const m = rows[head as 'resources' | 'pending' | 'deposed' | 'outputs'];
      // delete first so the row moves to the end: Map order is the order of the last write
      m.delete(String(key));
      m.set(String(key), p.op === 'remove' ? REMOVED : p.value);
    }
  }
  const split = (m: Map<string, unknown>) => {
    const upsert: Record<string, unknown> = {};
    const remove: string[] = [];
    for (const [k, v] of m) {
      if (v === REMOVED) remove.push(k);
      else {
        upsert[k] = seal(v as StoredItem);
        items++;
      }
    }
    return { upsert, remove };
  };
  const resources = split(rows.resources);
  const pending = split(rows.pending);
  const deposed = split(rows.deposed);
  const outputs = split(rows.outputs);
  return { resources, pending, deposed, outputs, lineage, version, items };
}
const REMOVED = Symbol('removed');

/**
 * One statement writing a batch: $1 stack, $2 the serial the batch starts from, $3..$6 resource
 * removals and upserts then pending ones, $7 the new serial, $8 lineage, $9 version, $10..$11
 * deposed removals and upserts, $12..$13 output removals and upserts. It locks the
 * stack row only if its serial is $2; otherwise it changes nothing and returns no row.
 */
export function batchStatement(t: Tables): string {
  const guard = 'EXISTS (SELECT 1 FROM s)';
  return `WITH s AS (SELECT stack FROM ${t.stacks} WHERE stack = $1 AND serial = $2 FOR UPDATE),
    dr AS (DELETE FROM ${t.resources} WHERE stack = $1 AND name = ANY($3::text[]) AND ${guard}),
    ur AS (INSERT INTO ${t.resources} (stack, name, data) SELECT $1, key, value FROM jsonb_each($4::jsonb) WHERE ${guard}
           ON CONFLICT (stack, name) DO UPDATE SET data = excluded.data),
    dp AS (DELETE FROM ${t.pending} WHERE stack = $1 AND id = ANY($5::text[]) AND ${guard}),
    up AS (INSERT INTO ${t.pending} (stack, id, data) SELECT $1, key, value FROM jsonb_each($6::jsonb) WHERE ${guard}
           ON CONFLICT (stack, id) DO UPDATE SET data = excluded.data),
    dd AS (DELETE FROM ${t.deposed} WHERE stack = $1 AND id = ANY($10::text[]) AND ${guard}),
    ud AS (INSERT INTO ${t.deposed} (stack, id, data) SELECT $1, key, value FROM jsonb_each($11::jsonb) WHERE ${guard}
           ON CONFLICT (stack, id) DO UPDATE SET data = excluded.data),
    do_ AS (DELETE FROM ${t.outputs} WHERE stack = $1 AND name = ANY($12::text[]) AND ${guard}),
    uo AS (INSERT INTO ${t.outputs} (stack, name, data) SELECT $1, key, value FROM jsonb_each($13::jsonb) WHERE ${guard}
           ON CONFLICT (stack, name) DO UPDATE SET data = excluded.data)
    UPDATE ${t.stacks} AS st SET serial = $7, lineage = coalesce($8, st.lineage), version = coalesce($9::integer, st.version), updated_at = now()
      FROM s WHERE st.stack = s.stack RETURNING st.serial`;
}

export function batchParams(stack: string, fromSerial: number, toSerial: number, b: Batch): unknown[] {
  return [
    stack,
    fromSerial,
    b.resources.remove,
    JSON.stringify(b.resources.upsert),
    b.pending.remove,
    JSON.stringify(b.pending.upsert),
    toSerial,
    b.lineage ?? null,
    b.version ?? null,
    b.deposed.remove,
    JSON.stringify(b.deposed.upsert),
    b.outputs.remove,
    JSON.stringify(b.outputs.upsert),
  ];
}

/** Splits a group into the commits that chain on `from` (each based on the one before) and those refused. */
export function chainFrom<T extends { change: StateChange }>(
  from: number,
  tasks: readonly T[],
): { from: number; accepted: T[]; refused: T[] } {
  const accepted: T[] = [];
  const refused: T[] = [];
  let serial = from;
  for (const t of tasks) {
    if (t.change.baseSerial === serial) {
      accepted.push(t);
      serial = t.change.serial;
    } else refused.push(t);
  }
  return { from, accepted, refused };
}

/** Replaces every row of the stack with a whole (sealed) state, inside the caller's transaction. */
export async function replaceRows(
  c: pg.PoolClient,
  t: Tables,
  stack: string,
  state: State,
  sealed: { resources: object; pending: object; deposed: object; outputs: object },
): Promise<void> {
  await c.query(`DELETE FROM ${t.resources} WHERE stack = $1`, [stack]);
  await c.query(`DELETE FROM ${t.pending} WHERE stack = $1`, [stack]);
  await c.query(`DELETE FROM ${t.deposed} WHERE stack = $1`, [stack]);
  await c.query(`DELETE FROM ${t.outputs} WHERE stack = $1`, [stack]);
  await c.query(`INSERT INTO ${t.outputs} (stack, name, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [
    stack,
    JSON.stringify(sealed.outputs),
  ]);
  await c.query(`INSERT INTO ${t.deposed} (stack, id, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [
    stack,
    JSON.stringify(sealed.deposed),
  ]);
  await c.query(`INSERT INTO ${t.resources} (stack, name, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [
    stack,
    JSON.stringify(sealed.resources),
  ]);
  await c.query(`INSERT INTO ${t.pending} (stack, id, data) SELECT $1, key, value FROM jsonb_each($2::jsonb)`, [
    stack,
    JSON.stringify(sealed.pending),
  ]);
  await c.query(`UPDATE ${t.stacks} SET serial = $2, lineage = $3, version = $4, updated_at = now() WHERE stack = $1`, [
    stack,
    state.serial,
    state.lineage,
    state.version,
  ]);
}
