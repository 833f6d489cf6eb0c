// A registered stack's module, loaded the way the `converge` command loads one: it default-exports
// `{ providers, state?, resources, ...engine options }` or a function (may be async) returning that.
// TypeScript modules load through tsx's loader (tsx is a run-time dependency); JavaScript by import().
import { pathToFileURL } from 'node:url';
import { isAbsolute, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { ResourceDecl } from '../engine/decl/resource-decl.js';
import type { EngineOptions } from '../engine/engine.js';
import { StackModuleError } from './errors.js';

/** What a stack module gives: the engine's options and the declarations. */
export type StackModule = EngineOptions & { readonly resources: readonly ResourceDecl[] };

/** Where a registered module path points (relative paths are taken from the process's directory). */
export const modulePath = (module: string): string => (isAbsolute(module) ? module : resolve(module));

async function importModule(path: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(path).href;
  if (/\.[mc]?tsx?$/.test(path)) {
    try {
      return (await import(url)) as { default?: unknown }; // a TypeScript-aware runtime (tsx, vitest, Node's type stripping)
    } catch (e) {
      if ((e as { code?: string })?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
      const { tsImport } = await import('tsx/esm/api');
      return (await tsImport(url, import.meta.url)) as { default?: unknown };
    }
  }
  return (await import(url)) as { default?: unknown };
}

/** Loads and checks a stack module. @throws StackModuleError naming the file and what is wrong. */
export async function loadStackModule(module: string): Promise<StackModule> {
  const path = modulePath(module);
  if (!existsSync(path)) throw new StackModuleError(path, 'no such file');
  let mod: { default?: unknown };
  try {
    mod = await importModule(path);
  } catch (error) {
    throw new StackModuleError(
      path,
      `importing it failed: ${String((error as Error)?.message ?? error).split('\n')[0]}`,
      {
        cause: error,
      },
    );
  }
  let value = mod.default;
  // A CommonJS-compiled default export arrives wrapped once more.
  if (value && typeof value === 'object' && 'default' in value && !('providers' in value))
    value = (value as { default: unknown }).default;
  try {
    if (typeof value === 'function') value = await (value as () => unknown)();
  } catch (error) {
    throw new StackModuleError(path, `its default export threw: ${String((error as Error)?.message ?? error)}`, {
      cause: error,
    });
  }
  if (!value || typeof value !== 'object') throw new StackModuleError(path, 'it has no default export');
  const stack = value as StackModule;
  if (!Array.isArray(stack.providers)) throw new StackModuleError(path, '`providers` is not an array');
  if (!Array.isArray(stack.resources)) throw new StackModuleError(path, '`resources` is not an array');
  return stack;
}
