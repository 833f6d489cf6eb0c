// Names are keys: a resource may be called `constructor`, `toString` or `__proto__`. Every lookup
// by name goes through own(), and every write through setOwn(), so no name ever reaches
// Object.prototype (a read of `toString` never finds the inherited function, a write of
// `__proto__` never replaces the prototype).

/** The value stored under `key` itself, never one inherited from Object.prototype. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Stores `value` under `key` as an own, enumerable property (`__proto__` included). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` is an accessor on Object.prototype; every other name is a plain assignment
  // (which creates an own property even for inherited names such as `constructor`), and faster.
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** A record with `fn` applied to each own value, under the same keys (setOwn: any name is safe). */
export function mapValues<T, U>(o: Readonly<Record<string, T>>, fn: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const k of Object.keys(o)) setOwn(out, k, fn(o[k]!));
  return out;
}
