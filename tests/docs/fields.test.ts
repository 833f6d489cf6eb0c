// The reference generator's reading of a zod schema: descriptions from `.describe()` and
// `.meta()`, defaults, required fields, nested paths in the engine's notation, and types.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../../scripts/docs/fields.js';

const schema = z.strictObject({
  name: z.string().min(1).describe('The name'),
  size: z.number().int().positive().default(3).meta({ description: 'How many' }),
  note: z.string().optional().describe('A note'),
  mode: z.enum(['a', 'b']).optional(),
  rules: z.array(z.object({ cidrs: z.array(z.string()).min(1), port: z.number().optional() })).default([]),
  labels: z.record(z.string(), z.string()).optional(),
  pools: z.record(z.string(), z.object({ count: z.number().describe('Nodes') })).optional(),
});

const byPath = () => Object.fromEntries(fieldsOf(schema, 'input').map((f) => [f.path, f]));

describe('fieldsOf', () => {
  it('reads descriptions from .describe() and .meta(), whatever the wrapping', () => {
    const f = byPath();
    expect([f.name!.description, f.size!.description, f.note!.description, f.mode!.description]).toEqual(['The name', 'How many', 'A note', undefined]);
  });

  it('marks required fields, and fields with a default as not required', () => {
    const f = byPath();
    expect([f.name!.required, f.size!.required, f.note!.required]).toEqual([true, false, false]);
    expect(f.size!.defaultJson).toBe('3');
  });

  it('gives list items and map values rows of their own, in the engine path notation', () => {
    expect(Object.keys(byPath())).toEqual(['name', 'size', 'note', 'mode', 'rules', 'rules[*].cidrs', 'rules[*].port', 'labels', 'pools', 'pools.*.count']);
    expect(byPath()['pools.*.count']!.description).toBe('Nodes');
  });

  it('names types: enums, lists, maps and integers', () => {
    const f = byPath();
    expect([f.mode!.type, f.rules!.type, f.labels!.type, f.size!.type, f['rules[*].cidrs']!.type]).toEqual(["'a' | 'b'", 'list<object>', 'map<string, string>', 'integer', 'list<string>']);
  });

  it('lists constraints, without the safe-integer bounds zod adds to every integer', () => {
    const f = byPath();
    expect(f.size!.constraints).toEqual(['> 0']);
    expect(f['rules[*].cidrs']!.constraints).toEqual(['at least 1 item']);
  });
});
