// What counts as a plain object: an object literal, or one made by Object.create(null); not an
// array, a class instance, a Date or a Map. The one check, for validation and the path walks.

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
