// Every field of every resource (inputs and outputs, nested fields included) and every lookup
// argument of the three providers has a description, written once in the zod schema with
// `.describe()` or `.meta({ description })`; the reference pages and editor hovers show it.
import { describe, expect, it } from 'vitest';
import { fieldsOf } from '../../scripts/docs/fields.js';
import { providerEntries } from '../../scripts/docs/generate.js';

function undescribed(): string[] {
  const missing: string[] = [];
  const entries = providerEntries();
  for (const { provider } of entries) {
    for (const r of provider.resources.values()) {
      for (const f of fieldsOf(r.inputs, 'input')) if (!f.description?.trim()) missing.push(`${r.token} input ${f.path}`);
      for (const f of fieldsOf(r.outputs, 'output')) if (!f.description?.trim()) missing.push(`${r.token} output ${f.path}`);
    }
    for (const l of provider.lookups.values()) {
      for (const f of fieldsOf(l.args, 'input')) if (!f.description?.trim()) missing.push(`${l.token} argument ${f.path}`);
    }
  }
  void Promise.all(entries.map((e) => e.provider.close()));
  return missing;
}

describe('provider schema descriptions', () => {
  it('cover every resource input, resource output and lookup argument', () => {
    expect(undescribed()).toEqual([]);
  });
});
