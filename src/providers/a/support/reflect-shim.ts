// @peculiar/x509 loads tsyringe, which refuses to start without a Reflect metadata polyfill and
// reflect-metadata is not a dependency. This installs the three functions it calls, only when
// absent, right before x509 is first imported (certificate generation only).
type Meta = Map<unknown, unknown>;
type ReflectWithMetadata = typeof Reflect & {
  getMetadata?: (key: unknown, target: object) => unknown;
  getOwnMetadata?: (key: unknown, target: object) => unknown;
  defineMetadata?: (key: unknown, value: unknown, target: object) => void;
};

export function ensureReflectMetadata(): void {
  const r = Reflect as ReflectWithMetadata;
  if (typeof r.getMetadata === 'function') return;
  const store = new WeakMap<object, Meta>();
  r.getOwnMetadata = (key, target) => store.get(target)?.get(key);
  r.getMetadata = (key, target) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
      const m = store.get(t);
      if (m?.has(key)) return m.get(key);
    }
    return undefined;
  };
  r.defineMetadata = (key, value, target) => {
    let m = store.get(target);
    if (!m) store.set(target, (m = new Map()));
    m.set(key, value);
  };
}
