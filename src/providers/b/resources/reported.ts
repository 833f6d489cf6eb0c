// How `read` reports inputs: what the API returns, except that optional inputs the user left out stay
// out (a server-side default is not drift), and everything is reported when importing (no prior).
import type { Prior } from '../../../engine/provider/define.js';

export type Reporter = {
  /** True when there is no prior (an import): every input is reported from the API. */
  readonly importing: boolean;
  /** For inputs the server fills when omitted: the API value only when the user set one (null: none). */
  computed<T>(key: string, api: T): Exclude<T, null> | undefined;
  /** For optional inputs: the API value, unless it is empty and the user set none (null: none). */
  optional<T>(key: string, api: T): Exclude<T, null> | undefined;
  /** The prior value of an input the API never returns. */
  kept<T>(key: string): T | undefined;
};

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

const orUndefined = <T>(v: T): Exclude<T, null> | undefined => (v === null ? undefined : (v as Exclude<T, null>));

export function reporter(prior: Prior): Reporter {
  const importing = Object.keys(prior.inputs).length === 0;
  const has = (key: string) => prior.inputs[key] !== undefined;
  return {
    importing,
    computed: (key, api) => (importing || has(key) ? orUndefined(api) : undefined),
    optional: (key, api) => (has(key) || !isEmpty(api) ? orUndefined(api) : undefined),
    kept: <T>(key: string) => prior.inputs[key] as T | undefined,
  };
}
