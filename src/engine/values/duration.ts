// Durations as users write them in options ('30s', '5m', '1h30m', '250ms'). A leaf: imports nothing.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** '30s', '5m', '1h', '1h30m', '250ms' → milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index !== consumed) return undefined;
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}
