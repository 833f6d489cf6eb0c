// What a plan says about provider instances beyond each step: a record whose instance the engine
// lacks (the plan names the instance and the settings it needs; converge never stores a
// credential, so it cannot make that instance itself), and an instance whose settings changed
// since its objects were recorded (each such object gets a state-only update showing the changed
// settings, nothing is replaced for it, and a warning says what the change means).
import type { ResourceState } from '../../state/model.js';
import type { Issue } from '../issue.js';
import type { Change } from '../diff/diff.js';
import type { Provider } from '../provider/define.js';
import { instanceLabel, instanceSettings, settingChanges, settingsText } from '../provider/instance.js';

/** The issue for a recorded object whose provider instance this engine does not have. */
export function missingInstanceIssue(name: string, r: ResourceState): Issue {
  const label = instanceLabel(r.provider, r.instance);
  const settings = r.instanceSettings ? ` with ${settingsText(r.instanceSettings)}` : '';
  const factory =
    r.instance === undefined
      ? `${r.provider}({ <credentials>, ... })`
      : `${r.provider}({ name: '${r.instance}', <credentials>, ... })`;
  return {
    resource: name,
    field: 'declaration',
    path: ['provider'],
    code: 'missing_instance',
    message: `the state holds '${name}' (${r.type} ${r.id}), made by ${label}${settings}; this engine has no such instance, so the object can be neither read nor deleted. Add ${factory} with those settings to providers (credentials are never stored in the state), or drop the record with engine.stateRm('${name}') if the object is gone or no longer yours.`,
  };
}

type Shift = { label: string; changes: Map<string, string>; names: string[]; gone: string[] };

/** Collects, while planning, the objects whose instance's settings differ from the recorded ones. */
export class InstanceNotes {
  readonly #shifts = new Map<string, Shift>();

  /**
   * The state-only changes (`provider.region`) for an object recorded with other settings of its
   * instance than `provider` has now; undefined when they are the same (or the record has none).
   */
  compare(name: string, prior: ResourceState, provider: Provider<unknown>, gone: boolean): Change[] | undefined {
    if (!prior.instanceSettings) return undefined;
    const now = instanceSettings(provider);
    // A provider that declares no settings says nothing about where its objects are: nothing to compare.
    if (!Object.keys(now).length) return undefined;
    const diffs = settingChanges(prior.instanceSettings, now);
    if (!diffs.length) return undefined;
    const label = instanceLabel(provider.name, provider.instanceName);
    let shift = this.#shifts.get(label);
    if (!shift) this.#shifts.set(label, (shift = { label, changes: new Map(), names: [], gone: [] }));
    for (const [k, b, a] of diffs) shift.changes.set(k, `${k} ${shown(b)} -> ${shown(a)}`);
    (gone ? shift.gone : shift.names).push(name);
    return diffs.map(([k, before, after]) => ({ path: ['provider', k], before, after }));
  }

  /** One warning per instance whose settings changed, and one per object the new settings did not find. */
  warnings(): string[] {
    const out: string[] = [];
    for (const s of this.#shifts.values()) {
      const all = [...s.names, ...s.gone];
      out.push(
        `${s.label}: its settings differ from those ${all.length} recorded object${all.length === 1 ? ' was' : 's were'} made with (${[...s.changes.values()].join('; ')}). converge reads, updates and deletes them through the new settings and replaces none of them for it; the plan records the new settings with each (${list(all)}).`,
      );
      for (const g of s.gone)
        out.push(
          `${g}: not found through ${s.label} with its new settings; it was made under the old ones and may still exist there. This plan creates it again through the new settings; to keep the old object instead, restore the settings (or give the old ones to a named instance and choose it with options.provider).`,
        );
    }
    return out;
  }
}

function shown(v: string | number | boolean | undefined): string {
  return v === undefined ? 'none' : typeof v === 'string' ? `'${v}'` : String(v);
}

function list(names: readonly string[]): string {
  return names.length > 10 ? `${names.slice(0, 10).join(', ')}, … ${names.length - 10} more` : names.join(', ');
}
