// Resource names end up on one line of `state list`, in Mermaid labels, in progress lines and in
// error messages: a newline or another control character in one breaks all of them, so validation
// refuses such names (one issue per name, saying which character and where).
import { cut } from './suggest.js';

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';
const hasControl = new RegExp(`[${CONTROL}]`, 'u');
const eachControl = () => new RegExp(`[${CONTROL}]`, 'gu');

const NAMED: Record<number, string> = {
  0x00: 'a NUL character',
  0x07: 'a bell character',
  0x08: 'a backspace',
  0x09: 'a tab',
  0x0a: 'a newline (line feed)',
  0x0b: 'a vertical tab',
  0x0c: 'a form feed',
  0x0d: 'a carriage return',
  0x1b: 'an escape character',
  0x7f: 'a delete character',
  0x85: 'a next-line character',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
};

/** The name as messages print it: itself when it has no control character, else quoted with each one escaped. */
export function printableName(name: string): string {
  if (!hasControl.test(name)) return name;
  const escaped = name.replace(/["\\]/g, '\\$&').replace(eachControl(), (c) => {
    const short = SHORT[c];
    return short ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Why `name` is refused (its first control character, its position and how many there are), or undefined when it has none. */
export function controlCharacterMessage(name: string): string | undefined {
  // Most names have none: one test with the compiled pattern, no new RegExp per name.
  if (!hasControl.test(name)) return undefined;
  const found = [...name.matchAll(eachControl())];
  if (found.length === 0) return undefined;
  const first = found[0]!;
  const code = first[0].codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = NAMED[code] ?? 'a control character';
  const more =
    found.length > 1 ? ` (and ${found.length - 1} more control character${found.length > 2 ? 's' : ''})` : '';
  return (
    `the name ${cut(printableName(name))} contains ${what} (${hex}) at position ${first.index! + 1}${more}; ` +
    'names are shown on one line (state list, graphs, progress), so they cannot hold newlines or control characters'
  );
}
