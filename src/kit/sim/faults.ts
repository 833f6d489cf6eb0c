// Injected faults for simulators: a fraction of requests, chosen by a seeded generator so a run can
// be repeated, is answered 429 (with Retry-After), 500, or a dropped connection (before or after the
// request took effect).
const faultKinds = ['429', '500', 'drop', 'drop_after'] as const;
export type FaultKind = (typeof faultKinds)[number];

export type FaultOptions = {
  /** Fraction of requests that fail, 0..1. */
  readonly rate: number;
  /** Which failures to draw from; default all four. */
  readonly kinds?: readonly FaultKind[];
  /** Retry-After seconds sent with 429 answers; default 0. */
  readonly retryAfterSeconds?: number;
  /** Methods subject to faults; default all. */
  readonly methods?: readonly string[];
};

/** mulberry32: small, fast, good enough to spread faults deterministically. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultPlan {
  readonly #random: () => number;
  #options: FaultOptions | undefined;
  constructor(options: FaultOptions | undefined, seed = 1) {
    if (options && !(options.rate >= 0 && options.rate <= 1))
      throw new TypeError('Expected `faults.rate` to be a number from 0 to 1');
    this.#options = options;
    this.#random = seededRandom(seed);
  }
  set(options: FaultOptions | undefined): void {
    this.#options = options;
  }
  get options(): FaultOptions | undefined {
    return this.#options;
  }
  /** Draws the fault for one request, or undefined. */
  draw(method: string): FaultKind | undefined {
    const o = this.#options;
    if (!o || o.rate <= 0) return undefined;
    if (o.methods && !o.methods.includes(method)) return undefined;
    if (this.#random() >= o.rate) return undefined;
    const kinds = o.kinds ?? faultKinds;
    return kinds[Math.floor(this.#random() * kinds.length)];
  }
}
