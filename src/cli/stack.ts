// A stack module: the file the `converge` command loads (TypeScript through tsx, or JavaScript). It
// default-exports `{ providers, state?, resources, ...engine options }`, or a function (may be
// async) returning that.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { ResourceDecl } from '../engine/decl/resource-decl.js';
import type { EngineOptions } from '../engine/engine.js';
import { ConvergeError } from '../engine/errors.js';
import { describeSyntaxError, syntaxLocation, type SyntaxLocation } from './syntax-location.js';

export type StackModule = EngineOptions & {
  readonly resources: readonly ResourceDecl[];
  /** The stack's outputs (`plan(decls, { outputs })`): shown in the plan, recorded by apply, read by other stacks. */
  readonly outputs?: Readonly<Record<string, unknown>>;
};

class StackLoadError extends ConvergeError {
  override readonly name = 'StackLoadError';
  constructor(
    readonly path: string,
    reason: string,
    options?: { cause?: unknown; syntax?: SyntaxLocation },
  ) {
    super(
      options?.syntax
        ? `Cannot load the stack module ${path}: ${describeSyntaxError(options.syntax)}\nFix the syntax error and run the command again.`
        : `Cannot load the stack module ${path}: ${reason}.\nA stack module default-exports { providers, state?, resources } or a function returning it.`,
      { cause: options?.cause },
    );
    this.syntax = options?.syntax;
  }
  /** Where the module (or one it imports) has a syntax error: file, 1-based line and column, reason. */
  readonly syntax: SyntaxLocation | undefined;
}

export async function loadStack(file: string): Promise<StackModule> {
  const path = resolve(file);
  if (!existsSync(path)) throw new StackLoadError(path, 'no such file (pass --stack <file> or set CONVERGE_STACK)');
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    // A provider factory's own refusal (a missing token, a bad endpoint) is the error, not the loading.
    if (/^CONVERGE_/.test(String((error as { code?: unknown } | null)?.code))) throw error;
    const syntax = syntaxLocation(error, path);
    const first = String((error as Error)?.message ?? error).split('\n')[0];
    // Node 20 gives an imported ES module's syntax error no location, and only the stack module itself can be checked
    const reason =
      (error as Error)?.name === 'SyntaxError' && !syntax
        ? `a module it imports has a syntax error: ${first} (Node does not say where; \`node --check <file>\` on each module it imports shows the line)`
        : `importing it failed: ${first}`;
    throw new StackLoadError(path, reason, { cause: error, syntax });
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
