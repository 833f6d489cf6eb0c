// Runs the `converge` command from the test bundle (cli-bundle.ts), as bin/converge.mjs runs the
// built one: `node cli-launch.mjs <args>` is `converge <args>`. `node cli-launch.mjs --script
// <file> <args>` runs a TypeScript script of the tests (e.g. a library fixture) on the same bundle.
//
// The bundle and its npm packages are imported first, then module hooks for what the command
// imports next (the stack module, TypeScript): a resolve hook that sends an import of a bundled
// entry point's source (src/index.ts, what a stack or a fixture imports) to the bundle's module, so
// there is one copy of each class and symbol, as the command from source shares the stack's modules
// (a ProviderError thrown by the stack's provider must be the engine's ProviderError).
//
// TypeScript is loaded as bin/converge.mjs loads it, by esbuild's transform (tsx's), here from
// synchronous hooks in the command's own thread (module.registerHooks) with each transform kept
// beside the bundle by content: tsx's hooks run on a thread of their own, which cost about 0.25 s
// of CPU in every command, and most commands load the same fixture. The tests of how a stack's
// syntax error is reported (stack-syntax.test.ts) set CONVERGE_TEST_TSX=1: the command then
// registers tsx itself, as the shipped command does, since those errors cross tsx's thread.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, enableCompileCache, register, registerHooks } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = process.env.CONVERGE_TEST_CLI_BUNDLE;
if (!bundle) throw new Error('CONVERGE_TEST_CLI_BUNDLE is not set: the test bundle is built by tests/setup/global.ts');
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// V8's code cache for the bundle, kept beside it: the commands after the first skip compiling it
// (about 0.05 s of CPU each of the suite's commands)
enableCompileCache?.(`${bundle}/.compile-cache`);
const entries = JSON.parse(readFileSync(`${bundle}/entries.json`, 'utf8'));
const at = (entry) => pathToFileURL(`${bundle}/${entry}.mjs`).href;

const { main } = await import(at('cli/main'));
// Provider B's stacks are most of the commands the tests run; a stack of A or C loads its provider
// when it imports it (A alone took 0.1-0.15 s of CPU to load, in every command).
for (const entry of ['index', 'providers/b/index']) await import(at(entry));

const bundled = new Map(entries.map((e) => [pathToFileURL(`${repo}/src/${e}.ts`).href, at(e)]));
// (Node before 22.15 has no registerHooks: tsx there too)
if (process.env.CONVERGE_TEST_TSX === '1' || !registerHooks) {
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  register('./cli-hooks.mjs', import.meta.url, { data: { map: Object.fromEntries(bundled) } });
} else {
  process.setSourceMapsEnabled(true); // as tsx does: a stack's stack traces name its own lines
  registerHooks({ resolve: resolveHook, load: loadHook });
}

/** A relative `.js` import of a `.ts` file (TypeScript's own convention) finds the `.ts`, as under tsx; bundled entry points go to the bundle. */
function resolveHook(specifier, context, next) {
  let resolved;
  try {
    resolved = next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^\.\.?\/.*\.[cm]?js$/.test(specifier)) throw error;
    resolved = next(specifier.replace(/js$/, 'ts'), context);
  }
  const to = bundled.get(resolved.url);
  return to ? { url: to, format: 'module', shortCircuit: true } : resolved;
}

const TS = /\.([cm]?)ts$/;

/** A kept transform, or undefined when there is none yet. */
function readCached(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** TypeScript through esbuild's transform, each result kept in the bundle's .ts-cache by path and content. */
function loadHook(url, context, next) {
  const ext = url.startsWith('file:') ? TS.exec(url)?.[1] : undefined;
  if (ext === undefined) return next(url, context);
  const path = fileURLToPath(url);
  const text = readFileSync(path, 'utf8');
  const key = createHash('sha1').update(path).update('\0').update(text).digest('hex');
  const cached = join(bundle, '.ts-cache', `${key}.js`);
  let code = readCached(cached);
  if (code === undefined) {
    // esbuild's sync transform (a syntax error throws its TransformError, errors[0] with the location)
    const esbuild = createRequire(import.meta.url)('esbuild');
    code = esbuild.transformSync(text, { loader: 'ts', sourcefile: path, sourcemap: 'inline', target: 'node22' }).code;
    mkdirSync(dirname(cached), { recursive: true });
    const tmp = `${cached}.${process.pid}`;
    writeFileSync(tmp, code);
    renameSync(tmp, cached); // whole or absent: commands run at once
  }
  const format =
    ext === 'm' ? 'module' : ext === 'c' ? 'commonjs' : /^\s*(import|export)\b/m.test(code) ? 'module' : 'commonjs';
  return { format, source: code, shortCircuit: true };
}

if (process.argv[2] === '--script') {
  const file = resolve(process.argv[3]);
  process.argv.splice(1, 3, file);
  await import(pathToFileURL(file).href);
} else {
  process.exitCode = await main(process.argv.slice(2));
}
