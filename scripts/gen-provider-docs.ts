// `npm run docs:providers`: writes docs/providers/<a|b|c>/<resource-or-lookup>.md from the
// providers' zod schemas and definitions, and removes pages of resources that no longer exist; and
// src/providers/<x>/field-docs.ts, the same descriptions as the typed helpers' TSDoc.
// `--check` writes nothing and exits 1 when the committed pages are not current.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { committedProviderDocs, docsDir, driftOf, generateProviderDocs } from './docs/generate.js';
import { committedFieldDocs, generateFieldDocs } from './docs/field-docs.js';

const generated = await generateProviderDocs();
const drift = driftOf(generated, committedProviderDocs());
const fieldDocs = await generateFieldDocs();
const committedDocs = committedFieldDocs(fieldDocs.keys());
const staleFieldDocs = [...fieldDocs].filter(([p, text]) => committedDocs.get(p) !== text).map(([p]) => p);
const differing = [...drift.missing, ...drift.stale, ...drift.changed, ...staleFieldDocs];

if (process.argv.includes('--check')) {
  if (differing.length) {
    console.error(
      `docs/providers is not current (run npm run docs:providers):\n${differing.map((p) => `  ${p}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`docs/providers is current (${generated.size} pages)`);
} else {
  for (const p of drift.stale) rmSync(join(docsDir, p));
  for (const [p, text] of generated) {
    mkdirSync(dirname(join(docsDir, p)), { recursive: true });
    writeFileSync(join(docsDir, p), text);
  }
  for (const p of staleFieldDocs) writeFileSync(p, fieldDocs.get(p)!);
  console.log(`docs/providers: ${generated.size} pages (${differing.length} written or removed)`);
}
