#!/usr/bin/env node
// The `converge` command. tsx is registered first so stack modules written in TypeScript load
// (this is why tsx is a run-time dependency); then the built CLI runs (or, in a source checkout
// without a build, or with CONVERGE_CLI_FROM_SOURCE=1 as the repository's tests set, the TypeScript source).
import { register } from 'tsx/esm/api';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

register();
const built = new URL('../dist/cli/main.js', import.meta.url);
const source = new URL('../src/cli/main.ts', import.meta.url);
const entry = process.env.CONVERGE_CLI_FROM_SOURCE !== '1' && existsSync(fileURLToPath(built)) ? built : source;
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
