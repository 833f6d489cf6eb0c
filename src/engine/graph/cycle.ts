// Finds one dependency cycle, so a validation error can name it: a -> b -> c -> a.

/** Returns the names along one cycle (first name repeated at the end), or undefined if there is none. */
export function findCycle(deps: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 1 | 2>(); // 1: on the stack, 2: done
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const iters: Iterator<string>[] = [];
    state.set(start, 1);
    path.push(start);
    iters.push((deps.get(start) ?? [])[Symbol.iterator]());
    while (iters.length) {
      const next = iters[iters.length - 1]!.next();
      if (next.done) {
        state.set(path.pop()!, 2);
        iters.pop();
        continue;
      }
      const n = next.value;
      const s = state.get(n);
      if (s === 1) return [...path.slice(path.indexOf(n)), n];
      if (s === 2) continue;
      state.set(n, 1);
      path.push(n);
      iters.push((deps.get(n) ?? [])[Symbol.iterator]());
    }
  }
  return undefined;
}
