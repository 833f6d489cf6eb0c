// The providers a plan was made with, as a saved plan records them: each instance's name, resource types
// and non-secret settings (endpoint, region, project, remote: `planConfig()`, else
// `terraformConfig()` without its secrets). Apply of a saved plan refuses an engine whose providers
// serve other types or are configured to make objects elsewhere, naming the setting.
import type { Provider } from '../provider/define.js';
import { instanceLabel, instanceSettings, type SettingValue } from '../provider/instance.js';
import { canonical } from './plan-integrity.js';
import { PlanFileError } from './plan-errors.js';

export type ProviderPrint = {
  readonly name: string;
  /** The instance's name (`provb({ name: 'ops' })`); absent: the default instance. */
  readonly instance?: string;
  readonly resources: readonly string[];
  /** Flattened (`remote.local`, `endpoints[0]`), secrets and empty values left out. */
  readonly settings: Readonly<Record<string, SettingValue>>;
};

/** Each instance once, the default one of a provider first, then its named ones by name. */
export function providerPrints(providers: readonly Provider<unknown>[]): ProviderPrint[] {
  return providers
    .map((p) => ({
      name: p.name,
      ...(p.instanceName !== undefined ? { instance: p.instanceName } : {}),
      resources: [...p.resources.keys()].sort(),
      settings: instanceSettings(p),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || keyOf(a).localeCompare(keyOf(b)));
}

const keyOf = (p: Pick<ProviderPrint, 'name' | 'instance'>) => (p.instance === undefined ? '' : `'${p.instance}`);

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
  const byName = new Map(mine.map((p) => [`${p.name}${keyOf(p)}`, p]));
  const refuse = (detail: string) => new PlanFileError('providers_mismatch', where, detail);
  for (const p of planProviders) {
    const m = byName.get(`${p.name}${keyOf(p)}`);
    const label = p.instance === undefined ? `'${p.name}'` : instanceLabel(p.name, p.instance);
    if (!m) throw refuse(`the plan was made with provider ${label}, which this engine does not have`);
    if (canonical(m.resources) !== canonical(p.resources))
      throw refuse(`provider ${label} serves other resource types than when the plan was made`);
    const keys = [...new Set([...Object.keys(p.settings), ...Object.keys(m.settings)])].sort();
    const differ = keys
      .filter((k) => setting(p.settings, k) !== setting(m.settings, k))
      .map(
        (k) =>
          `${p.instance === undefined ? p.name : `${p.name} '${p.instance}'`}.${k}: the plan was made with ${shown(setting(p.settings, k))}, this engine has ${shown(setting(m.settings, k))}`,
      );
    if (differ.length) throw refuse(differ.join('; '));
  }
  if (mine.length !== planProviders.length)
    throw refuse(`the plan was made with ${planProviders.length} providers, this engine has ${mine.length}`);
}
