// Provider instances: several of one provider in an engine (two Civo accounts, two LXD servers),
// told apart by the name given to the factory (`provb({ name: 'ops' })`; none: the default
// instance). What a record keeps of the instance that made its object: the name, and the
// instance's non-secret settings (endpoint, region, project, remote), never a credential.
import { isSensitive } from '../values/secret.js';

/**
 * What this module reads of a provider, as a shape (not define.ts's Provider type, which would
 * tie the two files in a circle: define.ts checks instance names here).
 */
type ProviderInstance = {
  readonly instanceName?: string;
  planConfig?(): unknown;
  readonly terraformConfig?: unknown;
};

/** A setting's value as recorded: a string, number or boolean. */
export type SettingValue = string | number | boolean;

/** Non-secret settings, flattened (`remote.local`, `endpoints[0]`), in key order. */
type InstanceSettings = Readonly<Record<string, SettingValue>>;

/** What a record (or pending record) keeps of the instance that made its object. */
type InstanceFields = {
  readonly instance?: string;
  readonly instanceSettings: InstanceSettings;
};

/** What every provider factory takes beside its own options: the instance's name, for a second (third, ...) instance. */
export type InstanceOption = {
  /**
   * The instance's name when the engine holds several of this provider (two accounts, two
   * servers): declarations choose it with `options.provider`, or through the helpers this instance
   * carries (`ops.network(...)`). Absent: the default instance.
   */
  readonly name?: string;
};

/** An instance name is a word a declaration can give as `options.provider` ('ops', 'eu-west'). */
const INSTANCE_NAME = /^[A-Za-z][\w-]{0,62}$/;

/** @throws TypeError when `instance` is given and is not a short word. */
export function checkInstanceName(instance: unknown): void {
  if (instance === undefined) return;
  if (typeof instance !== 'string' || !INSTANCE_NAME.test(instance))
    throw new TypeError(
      "Expected the provider instance's `name` to be a word of letters, digits, '-' or '_', starting with a letter (like 'ops')",
    );
}

/** How a plan or message names an instance: `provb` for the default one, `provb 'ops'` for a named one. */
export function instanceLabel(provider: string, instance: string | undefined): string {
  return instance === undefined ? `${provider} (default instance)` : `${provider} '${instance}'`;
}

const settingsCache = new WeakMap<object, InstanceSettings>();

/** A provider instance's non-secret settings (`planConfig()`, else `terraformConfig()` without its secrets), flattened. */
export function instanceSettings(p: ProviderInstance): InstanceSettings {
  const cached = settingsCache.get(p);
  if (cached) return cached;
  const out: Record<string, SettingValue> = {};
  // A hand-made provider (tests, tools) may have neither: it has no settings then.
  const settings = p.planConfig
    ? p.planConfig()
    : typeof p.terraformConfig === 'function'
      ? (p.terraformConfig as () => unknown).call(p)
      : {};
  flatten(settings, '', out);
  const sorted = Object.freeze(
    Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  );
  settingsCache.set(p, sorted);
  return sorted;
}

/** The instance fields of a record written through `p`. */
export function instanceFields(p: ProviderInstance): InstanceFields {
  return p.instanceName === undefined
    ? { instanceSettings: instanceSettings(p) }
    : { instance: p.instanceName, instanceSettings: instanceSettings(p) };
}

/** The settings that differ between two sets, `[key, before, after]` (undefined: absent), in key order. */
export function settingChanges(
  before: InstanceSettings,
  after: InstanceSettings,
): [string, SettingValue | undefined, SettingValue | undefined][] {
  if (before === after) return [];
  const out: [string, SettingValue | undefined, SettingValue | undefined][] = [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const k of keys) {
    const b = Object.hasOwn(before, k) ? before[k] : undefined;
    const a = Object.hasOwn(after, k) ? after[k] : undefined;
    if (b !== a) out.push([k, b, a]);
  }
  return out;
}

/** Settings as a message shows them: `apiEndpoint 'http://…', region 'NYC1'`. */
export function settingsText(settings: InstanceSettings): string {
  const entries = Object.entries(settings);
  return entries.length
    ? entries.map(([k, v]) => `${k} ${typeof v === 'string' ? `'${v}'` : v}`).join(', ')
    : 'no settings';
}

// Never a credential: sensitive markers are dropped, and a URL's user and password removed.
function flatten(v: unknown, path: string, out: Record<string, SettingValue>): void {
  if (v === undefined || v === null || isSensitive(v)) return;
  if (Array.isArray(v)) v.forEach((x, i) => flatten(x, `${path}[${i}]`, out));
  else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) flatten(x, path ? `${path}.${k}` : k, out);
  else if (typeof v === 'string') out[path] = withoutUserInfo(v);
  else if (typeof v === 'number' || typeof v === 'boolean') out[path] = v;
}

function withoutUserInfo(s: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(s)) return s;
  try {
    const u = new URL(s);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return s;
  }
}
