// How the fake LXD refuses config it does not take: every key checked against the table generated
// from LXD's documentation (wire/config-keys.ts), and the refusal worded and framed per object kind
// the way the daemon frames it (texts and statuses probed on a real daemon: an instance's create
// fails its operation with "Failed creating instance record: …", a network's create answers 500
// "Invalid value for network "n" option "k": …", a project 400 "Invalid project configuration key …").
import { configProblems, tablesFor, type ConfigProblem } from '../support/config-check.js';

/** The first key LXD would refuse in `config` (in key order), or undefined. */
function firstProblem(
  kind: Parameters<typeof tablesFor>[0],
  config: Readonly<Record<string, string>>,
  sub?: string,
): ConfigProblem | undefined {
  return configProblems(tablesFor(kind, sub), config)[0];
}

/** An instance's or a profile's config: LXD's reason alone (`Unknown configuration key: k`, `Invalid value: x`). */
export function instanceConfigRefusal(config: Readonly<Record<string, string>>): string | null {
  return firstProblem('instance', config)?.reason ?? null;
}

/** A network's config, by its type. */
export function networkConfigRefusal(
  name: string,
  type: string,
  config: Readonly<Record<string, string>>,
): string | null {
  const p = firstProblem('network', config, type);
  if (!p) return null;
  return p.kind === 'unknown'
    ? `Invalid option for network "${name}" option "${p.key}"`
    : `Invalid value for network "${name}" option "${p.key}": ${p.reason}`;
}

/** A custom volume's config, by its pool's driver; LXD names the volume `<project>_<name>`. */
export function volumeConfigRefusal(
  project: string,
  name: string,
  driver: string,
  config: Readonly<Record<string, string>>,
): string | null {
  const p = firstProblem('volume', config, driver);
  if (!p) return null;
  const vol = `${project}_${name}`;
  return p.kind === 'unknown'
    ? `Invalid option for volume "${vol}" option "${p.key}"`
    : `Invalid value for volume "${vol}" option "${p.key}": ${p.reason}`;
}

/** A storage pool's config, by its driver. */
export function poolConfigRefusal(driver: string, config: Readonly<Record<string, string>>): string | null {
  const p = firstProblem('pool', config, driver);
  if (!p) return null;
  return p.kind === 'unknown' ? `Invalid option "${p.key}"` : `Invalid value for option "${p.key}": ${p.reason}`;
}

/** A project's config. */
export function projectConfigRefusal(config: Readonly<Record<string, string>>): string | null {
  const p = firstProblem('project', config);
  if (!p) return null;
  return p.kind === 'unknown'
    ? `Invalid project configuration key "${p.key}"`
    : `Invalid project configuration key "${p.key}" value: ${p.reason}`;
}
