// Older state formats, brought up to STATE_VERSION when a store reads them. Version 1 kept the old
// object of an interrupted create-before-destroy replacement as a resource named
// `<name>~deposed-<id>`; version 2 keeps it as a typed record in `deposed`.
import { randomBytes } from 'node:crypto';
import { STATE_VERSION, type DeposedObject, type ResourceState } from './model.js';
import { setOwn } from './keys.js';

const V1_DEPOSED = /^(.+)~deposed-[\w-]*$/;

type RawCollections = {
  version?: number;
  resources: Record<string, ResourceState>;
  pending?: Record<string, unknown>;
  deposed?: Record<string, DeposedObject>;
  outputs?: Record<string, unknown>;
};

/** Migrates a freshly parsed (mutable) state in place; returns true when it changed anything. */
export function migrateRaw(raw: RawCollections): boolean {
  let changed = false;
  if (!raw.pending) {
    raw.pending = {};
    changed = true;
  }
  if (!raw.deposed) {
    raw.deposed = {};
    changed = true;
  }
  // A state written before stack outputs has none: nothing to rewrite.
  raw.outputs ??= {};
  if ((raw.version ?? 1) < 2) {
    for (const key of Object.keys(raw.resources)) {
      const m = V1_DEPOSED.exec(key);
      if (!m) continue;
      const r = raw.resources[key]!;
      const deposedKey = newDeposedKey(raw.deposed);
      setOwn(raw.deposed, deposedKey, { ...r, name: m[1]!, deposedKey, deposedAt: r.updatedAt });
      delete raw.resources[key];
    }
    raw.version = STATE_VERSION;
    changed = true;
  }
  return changed;
}

/** A random key not yet used in `deposed` (Terraform's DeposedKey: 8 hex digits). */
export function newDeposedKey(deposed: Readonly<Record<string, unknown>> = {}): string {
  for (;;) {
    const key = randomBytes(4).toString('hex');
    if (!Object.prototype.hasOwnProperty.call(deposed, key)) return key;
  }
}
