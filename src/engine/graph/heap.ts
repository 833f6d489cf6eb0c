// A binary min-heap: the ready nodes of a plan's execution graph taken in a stable order, at
// O(log n) each (execution.ts orders a plan's steps with it).

/** A binary min-heap of `T` under the order `less` (negative: a first). */
export class Heap<T> {
  readonly #items: T[] = [];
  constructor(readonly less: (a: T, b: T) => number) {}
  get size(): number {
    return this.#items.length;
  }
  push(item: T): void {
    const a = this.#items;
    // An index store, not push(), that the JIT keeps optimized (see engine/validate/validate.ts).
    let i = a.length;
    a[i] = item;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[i]!, a[p]!) >= 0) break;
      swap(a, i, p);
      i = p;
    }
  }
  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        swap(a, i, m);
        i = m;
      }
    }
    return top;
  }
}

/** Swaps two items in place (not by destructuring, which builds an array and an iterator until the JIT removes them). */
function swap<T>(a: T[], i: number, j: number): void {
  const x = a[i]!;
  a[i] = a[j]!;
  a[j] = x;
}
