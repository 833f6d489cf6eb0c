// An instance as the fake LXD's routes see it: the one a request names (in the request's project),
// and its config and devices expanded with those of its profiles.
import type { SimRequest } from '../../../kit/sim/router.js';
import { scoped, type Instance, type SimStore } from './store.js';
import { projectOf } from './wire.js';

/** The instance's config and devices over those of its profiles (in order; its own win). */
export function expanded(
  s: SimStore,
  i: Instance,
): { config: Record<string, string>; devices: Record<string, Record<string, string>> } {
  const config: Record<string, string> = {};
  const devices: Record<string, Record<string, string>> = {};
  for (const p of i.profiles) {
    const prof = s.profiles.get(scoped(i.project, p)) ?? s.profiles.get(scoped('default', p));
    Object.assign(config, prof?.config ?? {});
    Object.assign(devices, prof?.devices ?? {});
  }
  return { config: { ...config, ...i.config }, devices: { ...devices, ...i.devices } };
}

/** The instance a request's `:name` names, in the request's project. */
export function find(s: SimStore, req: SimRequest): Instance | undefined {
  return s.instances.get(scoped(projectOf(req), req.params.name!));
}
