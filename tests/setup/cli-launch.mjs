// Runs the `converge` command from the test bundle (cli-bundle.ts), as bin/converge.mjs runs the
// built one: `node cli-launch.mjs <args>` is `converge <args>`. `node cli-launch.mjs --script
// <file> <args>` runs a TypeScript script of the tests (e.g. a library fixture) on the same bundle.
//
// The bundle and its npm packages are imported before tsx is registered: with loader hooks in
// place every import (and every require inside a CommonJS package) is a round trip to the hooks'
// thread, which cost about as much as the command itself. Then tsx (stack modules are TypeScript),
// and a resolve hook that sends an import of a bundled entry point's source (src/index.ts, what a
// stack or a fixture imports) to the bundle's module: one copy of each class and symbol, as the
// command from source shares the stack's modules (a ProviderError thrown by the stack's provider
// must be the engine's ProviderError).
import { readFileSync } from 'node:fs';
import { enableCompileCache, register as registerHooks } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const bundle = process.env.CONVERGE_TEST_CLI_BUNDLE;
if (!bundle) throw new Error('CONVERGE_TEST_CLI_BUNDLE is not set: the test bundle is built by tests/setup/global.ts');
const repo = resolve(dirname(new URL(import.meta.url).pathname), '../..');
// V8's code cache for the bundle, kept beside it: the commands after the first skip compiling it
// (about 0.05 s of CPU each of the suite's ~150 commands)
enableCompileCache?.(`${bundle}/.compile-cache`);
const entries = JSON.parse(readFileSync(`${bundle}/entries.json`, 'utf8'));
const at = (entry) => pathToFileURL(`${bundle}/${entry}.mjs`).href;

const { main } = await import(at('cli/main'));
// Provider B's stacks are most of the commands the tests run; a stack of A or C loads its provider
// through the hooks when it imports it (A alone took 0.1-0.15 s of CPU to load, in every command).
for (const entry of ['index', 'providers/b/index']) await import(at(entry));

const { register } = await import('tsx/esm/api');
register();
const map = Object.fromEntries(entries.map((e) => [pathToFileURL(`${repo}/src/${e}.ts`).href, at(e)]));
registerHooks('./cli-hooks.mjs', import.meta.url, { data: { map } });

if (process.argv[2] === '--script') {
  const file = resolve(process.argv[3]);
  process.argv.splice(1, 3, file);
  await import(pathToFileURL(file).href);
} else {
  process.exitCode = await main(process.argv.slice(2));
}
