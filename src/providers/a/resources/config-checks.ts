// The plan-time check of LXD config maps: every key and value an instance, profile, network, pool,
// custom volume or project declares is checked against the table generated from LXD's documentation
// (wire/config-keys.ts), so what LXD would refuse at apply is a validation issue at plan — found
// before anything is read, all at once — naming the field, LXD's own words, and for a misspelt key
// the nearest documented one.
import type { CheckIssue } from '../../../engine/provider/define.js';
import { configProblems, tablesFor } from '../support/config-check.js';
import { LXD_CONFIG_RELEASE } from '../wire/config-keys.js';

/** Which config: the object kind (and its network type or pool driver), and the input it comes from. */
export type ConfigOf = {
  readonly kind: Parameters<typeof tablesFor>[0];
  /** Network type or pool driver; for a volume, unknown at plan (every driver's keys count). */
  readonly sub?: string;
  /** The input path of a key (default `['config', key]`). */
  readonly path?: (key: string) => readonly (string | number)[];
  /** Shown keys: `key` → what the user wrote (`limits.memory` → `memory` for an instance's `limits`). */
  readonly shown?: (key: string) => string;
};

/** One issue per key LXD would refuse: `unknown_config_key` (with did-you-mean) or `invalid_config_value`. */
export function configIssues(config: Readonly<Record<string, string>>, of: ConfigOf): CheckIssue[] {
  const path = of.path ?? ((k: string) => ['config', k]);
  const what = of.sub ? `${of.sub} ${of.kind}` : of.kind;
  return configProblems(tablesFor(of.kind, of.sub), config).map((p) =>
    p.kind === 'unknown'
      ? {
          path: path(p.key),
          code: 'unknown_config_key',
          message:
            `"${p.key}" is not an LXD ${what} config key (LXD ${LXD_CONFIG_RELEASE} documents no such key and refuses it: "${p.reason}")` +
            (p.suggestion ? `; did you mean "${of.shown?.(p.suggestion) ?? p.suggestion}"?` : ''),
        }
      : {
          path: path(p.key),
          code: 'invalid_config_value',
          message: `"${p.value}" is not a valid ${p.key}: expected ${p.expected}; LXD refuses it with "${p.reason}"`,
        },
  );
}
