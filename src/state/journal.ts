// The write-ahead journal's records: one per committed change, framed as a line
// `<byte length> <crc32 hex> <json>\n` so a torn or corrupt record is detected, never half-applied.
// A record is the change's resource-granular patches with secret values sealed; its cost does not
// depend on the size of the state.
import { crc32 } from 'node:zlib';
import {
  collections,
  type DeposedObject,
  type PendingOperation,
  type ResourceState,
  type StackOutput,
} from './model.js';
import type { StoredItem } from './crypto.js';
import { setOwn } from './keys.js';
import type { Patch, StateChange } from './patch.js';

/** A journal record: a StateChange whose whole-resource values have their secrets sealed. */
type JournalRecord = StateChange;

/** A state as stored: plain mutable JSON with possibly sealed secret values. */
export type RawState = {
  version: number;
  lineage: string;
  serial: number;
  resources: Record<string, ResourceState>;
  pending: Record<string, PendingOperation>;
  deposed: Record<string, DeposedObject>;
  outputs?: Record<string, StackOutput>;
};

type Sealer = { sealResource<T extends StoredItem>(item: T): T };

/** Calls `fn` with each whole resource or pending operation a patch writes, for sealing or checks. */
export function mapWrittenItems(patches: readonly Patch[], fn: (item: StoredItem) => unknown): Patch[] {
  return patches.map((p) => {
    if (p.op === 'remove') return p;
    const [head] = p.path;
    if (!(collections as readonly unknown[]).includes(head)) {
      if (p.path.length === 0 && typeof p.value === 'object' && p.value !== null) {
        const v = p.value as RawState;
        return {
          ...p,
          value: {
            ...v,
            resources: mapItems(v.resources, fn),
            pending: mapItems(v.pending ?? {}, fn),
            deposed: mapItems(v.deposed ?? {}, fn),
            outputs: mapItems(v.outputs ?? {}, fn),
          },
        };
      }
      return p;
    }
    if (p.path.length === 1) return { ...p, value: mapItems(p.value as Record<string, ResourceState>, fn) };
    if (p.path.length === 2) return { ...p, value: fn(p.value as ResourceState) };
    return p;
  });
}

function mapItems<T>(o: Readonly<Record<string, T>>, fn: (v: T) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) setOwn(out, k, fn(o[k]!));
  return out;
}

/** The record for `change`: its patches with secrets sealed (the serial patch is implied by `serial`). */
export function recordOf(change: StateChange, sealer: Sealer): JournalRecord {
  const patches = mapWrittenItems(
    change.patches.filter((p) => !(p.path.length === 1 && p.path[0] === 'serial')),
    (i) => sealer.sealResource(i),
  );
  return { baseSerial: change.baseSerial, serial: change.serial, patches };
}

/** Applies a record to a raw (plain, mutable) state in place. */
export function applyRecord(raw: RawState, record: JournalRecord): void {
  for (const p of record.patches) {
    if (p.path.length === 0) {
      Object.assign(raw, p.value);
      continue;
    }
    let parent = raw as unknown as Record<string | number, unknown>;
    for (const k of p.path.slice(0, -1)) parent = (parent[k] ??= {}) as Record<string | number, unknown>;
    const key = p.path[p.path.length - 1];
    if (p.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (p.op === 'add' && Array.isArray(parent)) {
      parent.splice(key === '-' ? parent.length : Number(key), 0, p.value);
    } else if (p.path.length === 2) {
      setOwn(parent as Record<string, unknown>, String(key), p.value);
    } else {
      parent[key] = p.value;
    }
  }
  raw.serial = record.serial;
}

export function encodeRecord(record: JournalRecord): Buffer {
  const body = Buffer.from(JSON.stringify(record), 'utf8');
  const head = Buffer.from(`${body.length} ${crc32(body).toString(16).padStart(8, '0')} `, 'ascii');
  return Buffer.concat([head, body, NEWLINE]);
}
const NEWLINE = Buffer.from('\n');

type DecodedJournal = {
  readonly records: readonly JournalRecord[];
  /** Bytes up to the end of the last whole record. */
  readonly validLength: number;
  /** Bytes after it: a torn last record, ignored. */
  readonly tornBytes: number;
};

/**
 * Decodes a journal. A bad record is ignored when nothing valid follows it (a write torn by a
 * crash); followed by a valid record it is corruption, reported as `{ corruptAt }`.
 */
export function decodeJournal(buf: Buffer): DecodedJournal | { readonly corruptAt: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at < buf.length) {
    const rec = decodeAt(buf, at);
    if (!rec) {
      if (hasValidRecordAfter(buf, at)) return { corruptAt: at };
      return { records, validLength: at, tornBytes: buf.length - at };
    }
    records.push(rec.record);
    at = rec.end;
  }
  return { records, validLength: at, tornBytes: 0 };
}

function decodeAt(buf: Buffer, at: number): { record: JournalRecord; end: number } | undefined {
  const sp1 = buf.indexOf(0x20, at);
  if (sp1 < 0 || sp1 - at > 12) return undefined;
  const sp2 = sp1 + 9;
  if (buf[sp2] !== 0x20) return undefined;
  const lenText = buf.toString('ascii', at, sp1);
  if (!/^\d+$/.test(lenText)) return undefined;
  const len = Number(lenText);
  const start = sp2 + 1;
  const end = start + len;
  if (end + 1 > buf.length || buf[end] !== 0x0a) return undefined;
  const body = buf.subarray(start, end);
  if (crc32(body).toString(16).padStart(8, '0') !== buf.toString('ascii', sp1 + 1, sp2)) return undefined;
  try {
    const record = JSON.parse(body.toString('utf8')) as JournalRecord;
    if (typeof record.serial !== 'number' || typeof record.baseSerial !== 'number' || !Array.isArray(record.patches))
      return undefined;
    return { record, end: end + 1 };
  } catch {
    return undefined;
  }
}

function hasValidRecordAfter(buf: Buffer, from: number): boolean {
  for (let nl = buf.indexOf(0x0a, from); nl >= 0 && nl + 1 < buf.length; nl = buf.indexOf(0x0a, nl + 1)) {
    if (decodeAt(buf, nl + 1)) return true;
  }
  return false;
}

/** What a dropped tail held: the start of a record (its serial and first change, when they survived), zero bytes, or neither. */
type TornTail =
  | { readonly kind: 'record'; readonly serial?: number; readonly firstChange?: string }
  | { readonly kind: 'zeros' }
  | { readonly kind: 'unreadable' };

/** Reads what survives of a torn tail's first record, for the warning that it was dropped. */
export function tornTailOf(tail: Buffer): TornTail {
  if (tail.every((b) => b === 0)) return { kind: 'zeros' };
  const text = tail.toString('utf8', 0, Math.min(tail.length, 4096));
  if (!/^\d{1,12}( |$)/.test(text)) return { kind: 'unreadable' };
  const serial = /"serial":(\d+)/.exec(text)?.[1];
  const first = /"op":"(\w+)","path":\["(resources|pending)","((?:[^"\\]|\\.)*)(")?/.exec(text);
  return {
    kind: 'record',
    ...(serial ? { serial: Number(serial) } : {}),
    ...(first ? { firstChange: `${first[1]} ${first[2]}["${first[3]}${first[4] ? '' : '…'}"]` } : {}),
  };
}

function describeTornTail(t: TornTail): string {
  if (t.kind === 'zeros') return 'zero bytes (space allocated for a write that never landed)';
  if (t.kind === 'unreadable') return 'bytes that do not start a record';
  const what =
    t.serial !== undefined
      ? `the start of the record for serial ${t.serial}`
      : 'the start of a record whose serial was cut off';
  return t.firstChange ? `${what}, whose first change was ${t.firstChange}` : what;
}

/** The warning a store gives when it drops a torn tail: how many bytes, where, and what they started. */
export function tornTailWarning(journalPath: string, at: number, tail: Buffer): string {
  return (
    `The journal ${journalPath} ends in ${tail.length} bytes of an unfinished write at byte ${at}, which were dropped: ` +
    `${describeTornTail(tornTailOf(tail))}. A process killed while writing leaves such a tail; if none was, check the disk.`
  );
}
