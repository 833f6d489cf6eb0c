// Small wire helpers every provider client shares: request bodies carry only what was set, and URL
// paths are filled one way, by name, from the path template the errors also show.

/** Drops undefined values, so a wire body carries only the fields that were set. */
export function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A path parameter's value: names and ids are escaped, never spliced in raw. */
export type PathParams = Readonly<Record<string, string | number>>;

/**
 * Fills `template` ('/v2/instances/{id}') from `params` by name, each value URL-escaped. Throws a
 * TypeError naming the parameter when one is missing, so a wrong call fails before any request.
 */
export function fillPath(template: string, params: PathParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : undefined; // never Object.prototype's
    if (value === undefined) throw new TypeError(`Expected path parameter \`${name}\` for ${template}`);
    return encodeURIComponent(String(value));
  });
}
