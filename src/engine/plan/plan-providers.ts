// The providers a plan was made with, as a saved plan records them: each one's name, resource types
// and non-secret settings (endpoint, region, project, remote: `planConfig()`, else
// `terraformConfig()` without its secrets). Apply of a saved plan refuses an engine whose providers
// serve other types or are configured to make objects elsewhere, naming the setting.
import type { Provider } from '../provider/define.js';
import { isSensitive } from '../values/secret.js';
import { canonical } from './plan-integrity.js';
import { PlanFileError } from './plan-errors.js';

/** A setting's value as recorded: a string, number or boolean. */
type SettingValue = string | number | boolean;

export type ProviderPrint = {
  readonly name: string;
  readonly resources: readonly string[];
  /** Flattened (`remote.local`, `endpoints[0]`), secrets and empty values left out. */
  readonly settings: Readonly<Record<string, SettingValue>>;
};

export function providerPrints(providers: readonly Provider<unknown>[]): ProviderPrint[] {
  return providers
    .map((p) => ({ name: p.name, resources: [...p.resources.keys()].sort(), settings: providerSettings(p) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A provider's non-secret settings, flattened to `path → value`. */
function providerSettings(p: Provider<unknown>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  flatten(p.planConfig ? p.planConfig() : p.terraformConfig(), '', out);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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

const setting = (settings: Readonly<Record<string, SettingValue>>, k: string) =>
  Object.hasOwn(settings, k) ? settings[k] : undefined;
const shown = (v: SettingValue | undefined) => (v === undefined ? 'none' : `'${String(v)}'`);

/** Refuses (PlanFileError 'providers_mismatch') engine providers other than the plan's, naming what differs. */
export function checkProviders(
  planProviders: readonly ProviderPrint[],
  engineProviders: readonly Provider<unknown>[],
  where: string,
): void {
  const mine = providerPrints(engineProviders);
  const byName = new Map(mine.map((p) => [p.name, p]));
  const refuse = (detail: string) => new PlanFileError('providers_mismatch', where, detail);
  for (const p of planProviders) {
    const m = byName.get(p.name);
    if (!m) throw refuse(`the plan was made with provider '${p.name}', which this engine does not have`);
    if (canonical(m.resources) !== canonical(p.resources))
      throw refuse(`provider '${p.name}' serves other resource types than when the plan was made`);
    const keys = [...new Set([...Object.keys(p.settings), ...Object.keys(m.settings)])].sort();
    const differ = keys
      .filter((k) => setting(p.settings, k) !== setting(m.settings, k))
      .map(
        (k) =>
          `${p.name}.${k}: the plan was made with ${shown(setting(p.settings, k))}, this engine has ${shown(setting(m.settings, k))}`,
      );
    if (differ.length) throw refuse(differ.join('; '));
  }
  if (mine.length !== planProviders.length)
    throw refuse(`the plan was made with ${planProviders.length} providers, this engine has ${mine.length}`);
}
