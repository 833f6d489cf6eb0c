// The typed helpers' fields carry their descriptions as TSDoc: each provider's field-docs.ts is
// generated from the same schemas as the reference pages, and is current. That an editor's hover
// shows them is tests/docs/tsdoc.test.ts's (its language service, with the public surface's).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateFieldDocs } from '../../scripts/docs/field-docs.js';

describe("the typed helpers' TSDoc", () => {
  it('is generated from the schemas, as the reference pages are, and is current (npm run docs:providers)', async () => {
    const generated = await generateFieldDocs();
    expect(generated.size).toBe(3);
    for (const [path, text] of generated) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });
});
