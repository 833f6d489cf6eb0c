// A stack module: the file the `converge` command loads (TypeScript through tsx, or JavaScript). It
// default-exports `{ providers, state?, resources, ...engine options }`, or a function (may be
// async) returning that.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { ResourceDecl } from '../engine/decl/resource-decl.js';
import type { EngineOptions } from '../engine/engine.js';
import { ConvergeError } from '../engine/errors.js';

export type StackModule = EngineOptions & { readonly resources: readonly ResourceDecl[] };

class StackLoadError extends ConvergeError {
  override readonly name = 'StackLoadError';
  constructor(
    readonly path: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Cannot load the stack module ${path}: ${reason}.\nA stack module default-exports { providers, state?, resources } or a function returning it.`,
      options,
    );
  }
}

export async function loadStack(file: string): Promise<StackModule> {
  const path = resolve(file);
  if (!existsSync(path)) throw new StackLoadError(path, 'no such file (pass --stack <file> or set CONVERGE_STACK)');
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new StackLoadError(path, `importing it failed: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  let value = mod.default;
  // A CommonJS-compiled default export arrives wrapped once more.
  if (value && typeof value === 'object' && 'default' in value && !('providers' in value))
    value = (value as { default: unknown }).default;
  if (typeof value === 'function') value = await (value as () => unknown)();
  if (!value || typeof value !== 'object') throw new StackLoadError(path, 'it has no default export');
  const stack = value as StackModule;
  if (!Array.isArray(stack.providers)) throw new StackLoadError(path, '`providers` is not an array');
  if (!Array.isArray(stack.resources)) throw new StackLoadError(path, '`resources` is not an array');
  return stack;
}
