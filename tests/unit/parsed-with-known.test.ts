// parsedWithKnown: the edit plan's parse of a declaration whose references now read known values,
// taken from validation's parse (references as unknowns) when nothing but the substituted scalars
// can differ; it must give what a whole parse gives, or nothing (the planner then parses whole).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsedWithKnown, parseWithUnknowns } from '../../src/engine/validate/schema.js';
import { unknown } from '../../src/engine/values/unknown.js';

const strict = z.strictObject({
  name: z.string().min(1),
  size: z.string().default('small'),
  netId: z.string().optional(),
  rules: z.array(z.object({ port: z.number().int(), cidr: z.string().default('0.0.0.0/0') })).default([]),
  tags: z.array(z.string()).optional(),
});

/** validation's parse (references as unknowns) beside the whole parse of the resolved value. */
function both(schema: z.ZodType, withUnknowns: unknown, resolved: unknown) {
  const validated = parseWithUnknowns(schema, withUnknowns);
  expect(validated.issues).toEqual([]);
  return { reused: parsedWithKnown(schema, validated.data, resolved), whole: parseWithUnknowns(schema, resolved) };
}

describe('parsedWithKnown', () => {
  it('gives the whole parse, defaults and key order included, for scalars under plain objects and lists', () => {
    const { reused, whole } = both(
      strict,
      { name: 'a', netId: unknown, rules: [{ port: 22 }, { port: unknown, cidr: unknown }], tags: ['x', unknown] },
      { name: 'a', netId: 'n-1', rules: [{ port: 22 }, { port: 443, cidr: '10.0.0.0/8' }], tags: ['x', 'y'] },
    );
    expect(whole.issues).toEqual([]);
    expect(reused).toEqual(whole.data);
    expect(Object.keys(reused as object)).toEqual(Object.keys(whole.data as object));
    expect(JSON.stringify(reused)).toBe(JSON.stringify(whole.data));
  });

  it('keeps what is still unknown as unknown, as the whole parse does', () => {
    const { reused, whole } = both(strict, { name: unknown, netId: unknown }, { name: unknown, netId: 'n-1' });
    expect(reused).toEqual(whole.data);
    expect((reused as { name: unknown }).name).toBe(unknown);
  });

  it('gives nothing where the known value is refused, transformed, not a scalar, or judged with the rest', () => {
    const cases: [z.ZodType, unknown, unknown][] = [
      // refused by its own schema: the whole parse reports it
      [strict, { name: 'a', netId: unknown }, { name: 'a', netId: 5 }],
      // transformed at its own schema
      [z.object({ n: z.string().transform((s) => s.toUpperCase()) }), { n: unknown }, { n: 'x' }],
      // an object read by a reference
      [z.object({ o: z.any() }), { o: unknown }, { o: { a: 1 } }],
      // a refinement above it reads it together with the rest
      [
        z.object({ a: z.string(), b: z.string() }).refine((v) => v.a !== v.b, { message: 'same' }),
        { a: 'x', b: unknown },
        { a: 'x', b: 'x' },
      ],
      // a union above it
      [
        z.union([z.object({ k: z.literal('a'), v: z.string() }), z.object({ k: z.string() })]),
        { k: unknown },
        { k: 'a' },
      ],
      // undefined read (an output the object does not have)
      [strict, { name: 'a', netId: unknown }, { name: 'a', netId: undefined }],
    ];
    for (const [schema, withUnknowns, resolved] of cases) {
      const validated = parseWithUnknowns(schema, withUnknowns);
      expect(parsedWithKnown(schema, validated.data, resolved)).toBeUndefined();
    }
  });

  it('hands validation’s parse back as it is when nothing is known yet, and never changes it', () => {
    const validated = parseWithUnknowns(strict, { name: 'a', netId: unknown });
    const before = JSON.stringify(validated.data);
    expect(parsedWithKnown(strict, validated.data, { name: 'a', netId: unknown })).toBe(validated.data);
    parsedWithKnown(strict, validated.data, { name: 'a', netId: 'n-1' });
    expect(JSON.stringify(validated.data)).toBe(before);
  });
});
