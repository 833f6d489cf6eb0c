// The journal's framing: whole records decode, a torn or zero-filled tail is ignored, a damaged
// record followed by a valid one is corruption; records carry sealed secrets, never clear ones.
import { describe, expect, it } from 'vitest';
import {
  applyRecord,
  decodeJournal,
  encodeRecord,
  recordOf,
  tornTailOf,
  type RawState,
} from '../../src/state/journal.js';
import { recordDelete, recordResource, markPending } from '../../src/state/ops.js';
import { SecretCodec } from '../../src/state/crypto.js';
import { resource } from '../conformance/state-store.js';

const rec = (i: number) => recordOf(recordResource(i, resource(`r${i}`)), { sealResource: (x) => x });

describe('journal records', () => {
  it('decodes whole records in order', () => {
    const buf = Buffer.concat([0, 1, 2].map((i) => encodeRecord(rec(i))));
    const d = decodeJournal(buf);
    expect('records' in d && d.records.map((r) => r.serial)).toEqual([1, 2, 3]);
    expect(d).toMatchObject({ validLength: buf.length, tornBytes: 0 });
  });

  it('ignores a record cut anywhere in the middle when it is the last', () => {
    const whole = Buffer.concat([encodeRecord(rec(0)), encodeRecord(rec(1))]);
    const first = encodeRecord(rec(0)).length;
    for (let cut = first + 1; cut < whole.length; cut += 7) {
      const d = decodeJournal(whole.subarray(0, cut));
      expect(d).toMatchObject({ validLength: first, tornBytes: cut - first });
      expect('records' in d && d.records).toHaveLength(1);
    }
  });

  it('calls a damaged record followed by a valid one corruption', () => {
    const a = encodeRecord(rec(0));
    const b = Buffer.from(encodeRecord(rec(1)));
    b[b.length - 5] ^= 1;
    const d = decodeJournal(Buffer.concat([a, b, encodeRecord(rec(2))]));
    expect(d).toEqual({ corruptAt: a.length });
  });

  it('replays records on a raw state without the serial patch', () => {
    const raw: RawState = { version: 1, lineage: 'l', serial: 0, resources: {}, pending: {}, deposed: {} };
    const p = markPending(1, { kind: 'create', type: 't', name: 'p', provider: 'x', inputs: {}, secrets: [] });
    for (const c of [recordResource(0, resource('a')), p.change, recordDelete(2, 'a', p.pending.id)]) {
      const r = recordOf(c, { sealResource: (x) => x });
      expect(r.patches.some((x) => x.path[0] === 'serial')).toBe(false);
      applyRecord(raw, r);
    }
    expect(raw).toEqual({ version: 1, lineage: 'l', serial: 3, resources: {}, pending: {}, deposed: {} });
  });

  it('seals secret values in records with a passphrase', async () => {
    const codec = await SecretCodec.create('test', 'pp', undefined);
    const c = recordResource(
      0,
      resource('db', {
        outputs: { token: 'tok-123', nested: { key: 'k-9' } },
        secrets: ['outputs.token', 'outputs.nested.key'],
      }),
    );
    const text = encodeRecord(recordOf(c, codec)).toString();
    expect(text).not.toContain('tok-123');
    expect(text).not.toContain('k-9');
    const decoded = decodeJournal(Buffer.from(text));
    const value =
      'records' in decoded ? (decoded.records[0].patches[0] as unknown as { value: never }).value : undefined;
    expect(codec.openResource(value!)).toEqual(c.patches[0].value);
  });
});

describe('torn tails', () => {
  it('names the serial and the first change of a record cut after them', () => {
    const whole = encodeRecord(recordOf(recordResource(6, resource('web')), { sealResource: (x) => x }));
    const cut = whole.subarray(0, whole.indexOf('"value"') + 3);
    expect(tornTailOf(cut)).toEqual({ kind: 'record', serial: 7, firstChange: 'add resources["web"]' });
  });

  it('marks a name cut in the middle, and leaves out what did not survive', () => {
    const whole = encodeRecord(recordOf(recordResource(6, resource('database')), { sealResource: (x) => x }));
    expect(tornTailOf(whole.subarray(0, whole.indexOf('database') + 4))).toEqual({
      kind: 'record',
      serial: 7,
      firstChange: 'add resources["data…"]',
    });
    expect(tornTailOf(whole.subarray(0, 20))).toEqual({ kind: 'record' });
  });

  it('tells zero bytes and foreign bytes from the start of a record', () => {
    expect(tornTailOf(Buffer.alloc(64))).toEqual({ kind: 'zeros' });
    expect(tornTailOf(Buffer.from('{"not":"a record"}'))).toEqual({ kind: 'unreadable' });
  });
});
