// Where a stack module's syntax error is: file, line, column (1-based) and the reason, from what
// the loader's error carries. TypeScript goes through tsx's esbuild: its error has `errors[0]`
// ({ text, location: { file, line, column } }) or, once it has crossed tsx's loader thread, only the
// message's "<file>:<line>:<column>: ERROR: <text>" lines. JavaScript goes through V8: a CommonJS or
// vm error's stack starts with "<file>:<line>", the source line and a caret; an ES module's
// SyntaxError on Node 20 has no location at all, so the file is checked with `node --check`,
// which prints that same header.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type SyntaxLocation = {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly reason: string;
  /** The source line, when known. */
  readonly source?: string;
};

type EsbuildMessage = {
  text?: string;
  location?: { file?: string; line?: number; column?: number; lineText?: string } | null;
};

/** The location of the syntax error `error` reports, checking `path` itself when the error does not say. */
export function syntaxLocation(error: unknown, path: string): SyntaxLocation | undefined {
  const at = locate(error, path);
  if (!at || at.source !== undefined) return at;
  try {
    const source = readFileSync(at.file, 'utf8').split(/\r?\n/)[at.line - 1];
    return source === undefined ? at : { ...at, source };
  } catch {
    return at;
  }
}

function locate(error: unknown, path: string): SyntaxLocation | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { errors?: EsbuildMessage[]; message?: unknown; stack?: unknown; name?: unknown };
  const first = Array.isArray(e.errors) ? e.errors[0] : undefined;
  if (first?.location?.file && typeof first.location.line === 'number') {
    return {
      file: first.location.file,
      line: first.location.line,
      column: (first.location.column ?? 0) + 1,
      reason: first.text ?? String(e.message),
      ...(first.location.lineText !== undefined ? { source: first.location.lineText } : {}),
    };
  }
  const message = typeof e.message === 'string' ? e.message : '';
  const esbuild = /^(.+?):(\d+):(\d+): ERROR: (.+)$/m.exec(message);
  if (esbuild) {
    return { file: esbuild[1]!, line: Number(esbuild[2]), column: Number(esbuild[3]) + 1, reason: esbuild[4]! };
  }
  if (e.name !== 'SyntaxError') return undefined;
  return (
    fromDecoratedStack(typeof e.stack === 'string' ? e.stack : '', message) ??
    (/\.(m|c)?js$/.test(path) ? checkWithNode(path, message) : undefined)
  );
}

/** V8's header: "<file>:<line>\n<source line>\n<spaces>^^^\n\nSyntaxError: <reason>". */
function fromDecoratedStack(text: string, reason: string): SyntaxLocation | undefined {
  const m = /^(\S.*?):(\d+)\n(.*)\n([ \t]*)\^+[ \t]*\n/.exec(text);
  if (!m) return undefined;
  const file = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
  const why = /^SyntaxError: (.+)$/m.exec(text)?.[1] ?? reason;
  return { file, line: Number(m[2]), column: m[4]!.length + 1, reason: why, source: m[3]! };
}

/** `node --check <path>`: the same header for the module's own syntax error (not one in a module it imports). */
function checkWithNode(path: string, reason: string): SyntaxLocation | undefined {
  const r = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0 || typeof r.stderr !== 'string') return undefined;
  const found = fromDecoratedStack(r.stderr, reason);
  return found && found.reason === reason ? found : undefined;
}

/** "file:line:column: reason", and the source line with a caret under the column when known. */
export function describeSyntaxError(at: SyntaxLocation): string {
  const head = `syntax error at ${at.file}:${at.line}:${at.column}: ${at.reason}`;
  if (at.source === undefined) return head;
  const pad = at.source.slice(0, at.column - 1).replace(/[^\t]/g, ' ');
  return `${head}\n  ${at.source}\n  ${pad}^`;
}
