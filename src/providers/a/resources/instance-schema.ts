// prova:index/instance:Instance's inputs and outputs as data (every field described, for the
// reference pages and editor hovers), and the checks of its inputs that need no server.
import { z } from 'zod';
import type { CheckIssue } from '../../../engine/provider/define.js';
import type { ProvaConfig } from '../config.js';
import { deviceSchema, sortDevices } from '../support/devices.js';
import { execSchema } from '../support/execs.js';
import { fileIssues, fileOwnership } from '../support/files.js';
import { splitImage } from '../support/images.js';
import { durationMs } from '../support/runtime.js';
import { scopeIssues } from './checks.js';
import { configIssues } from './config-checks.js';

export const fileSchema = z.object({
  targetPath: z.string().min(1).describe('Absolute path of the file inside the instance, including the file name.'),
  content: z.string().optional().describe('File contents; exactly one of `content` and `sourcePath` must be set.'),
  sourcePath: z
    .string()
    .optional()
    .describe(
      'Path of a local file whose contents are uploaded; exactly one of `content` and `sourcePath` must be set.',
    ),
  ...fileOwnership,
  createDirectories: z
    .boolean()
    .default(false)
    .describe('Create missing directories leading to `targetPath`; default `false`.'),
});

export const timeoutsSchema = z.object({
  create: z
    .string()
    .default('5m')
    .describe(
      'Longest wait for a create (including start and network), as a duration like `30s`, `5m` or `1h`; default `5m`.',
    ),
  read: z
    .string()
    .default('5m')
    .describe('Longest wait for a read, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
  update: z
    .string()
    .default('5m')
    .describe('Longest wait for an update, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
  delete: z
    .string()
    .default('5m')
    .describe('Longest wait for a delete, as a duration like `30s`, `5m` or `1h`; default `5m`.'),
});

export const instanceInputs = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('Name of the instance; changing it renames the instance (a running one only with `allowRestart`).'),
    image: z
      .string()
      .optional()
      .describe(
        'Image to create from, as `alias`, `fingerprint` or `remote:alias`; required for containers, and when omitted a virtual machine is created empty. Changing it replaces the instance.',
      ),
    type: z
      .enum(['container', 'virtual-machine'])
      .default('container')
      .describe('`container` or `virtual-machine`; default `container`. Changing it replaces the instance.'),
    description: z.string().default('').describe('Free-text description of the instance; default empty.'),
    ephemeral: z
      .boolean()
      .default(false)
      .describe(
        'Whether the server deletes the instance when it stops; default `false`. Changing it replaces the instance.',
      ),
    running: z
      .boolean()
      .default(true)
      .describe('Whether the instance should be running; default `true`. Changing it starts or stops the instance.'),
    waitForNetwork: z
      .boolean()
      .default(true)
      .describe(
        'Wait for a global IPv4 address before the instance counts as started; default `true`. No effect when `running` is false or the instance is already running on update.',
      ),
    allowRestart: z
      .boolean()
      .default(false)
      .describe(
        "Permit a stop and restart when a change needs it (renaming, migration to another `target`, growing a VM's memory); default `false`.",
      ),
    config: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        'Instance config settings as LXD key/value strings (e.g. `boot.autostart`); `limits.*`, `volatile.*` and `image.*` keys are not allowed here. Default empty.',
      ),
    limits: z
      .record(z.string(), z.string())
      .default({})
      .describe('Resource limits without the `limits.` prefix (e.g. `cpu: "2"`, `memory: "1GiB"`); default none.'),
    profiles: z
      .array(z.string())
      .optional()
      .describe(
        'Profiles applied in order; when omitted, profile `default` is applied, and an empty list applies none.',
      ),
    devices: z
      .array(deviceSchema)
      .default([])
      .transform(sortDevices)
      .describe('Devices of the instance itself (on top of those from its profiles); default none.'),
    execs: z
      .record(z.string(), execSchema)
      .default({})
      .describe(
        'Commands to run inside the instance, keyed by a name of your choice and run in key order; default none.',
      ),
    files: z.array(fileSchema).default([]).describe('Files uploaded into the instance; default none.'),
    project: z
      .string()
      .optional()
      .describe(
        "Project the instance lives in; when omitted, the remote's `default` project is used. Changing it replaces the instance.",
      ),
    remote: z
      .string()
      .optional()
      .describe(
        "Name of the remote that holds the instance; when omitted, the provider's default remote is used. Changing it replaces the instance.",
      ),
    target: z
      .string()
      .optional()
      .describe(
        'Cluster member (or `@group`) to place the instance on; ignored on a standalone server. Changing it migrates the instance (a running one only with `allowRestart`).',
      ),
    timeouts: timeoutsSchema
      .prefault({})
      .describe('Longest waits per operation (`create`, `read`, `update`, `delete`), each `5m` by default.'),
  })
  .describe(
    'A container or virtual machine: created from an image, started (by default) and given devices, files and commands to run.',
  );
export type InstanceInputs = z.output<typeof instanceInputs>;

const ifaceSchema = z.object({
  name: z.string().describe('Interface name inside the instance, such as `eth0`.'),
  type: z.string().describe('Interface type as the server reports it, such as `broadcast`.'),
  state: z.string().describe('Link state, `up` or `down`.'),
  ips: z
    .array(
      z.object({
        address: z.string().describe('IP address, without prefix length.'),
        family: z.string().describe('Address family, `inet` (IPv4) or `inet6` (IPv6).'),
        scope: z.string().describe('Address scope, `global`, `link` or `local`.'),
      }),
    )
    .describe('Addresses of the interface.'),
});
const execResultSchema = z.object({
  exitCode: z
    .number()
    .describe('Exit code of the last run; `-1` when the command has not run or the server gave none.'),
  stdout: z.string().describe('Standard output of the last run; empty unless `recordOutput` is true.'),
  stderr: z.string().describe('Standard error of the last run; empty unless `recordOutput` is true.'),
  runCount: z.number().describe('How many times the command has run so far.'),
});
export const instanceOutputs = z.object({
  status: z.string().describe('Instance status as the server reports it, such as `Running` or `Stopped`.'),
  location: z.string().describe('Cluster member holding the instance; empty on a standalone server.'),
  ipv4Address: z.string().describe('First global IPv4 address of the instance; empty string when none.'),
  ipv6Address: z.string().describe('First global IPv6 address of the instance; empty string when none.'),
  macAddress: z
    .string()
    .describe(
      'MAC address of the interface that holds the global address; empty when the instance has no global IP address.',
    ),
  interfaces: z
    .record(z.string(), ifaceSchema)
    .describe('Network interfaces except loopback, keyed by interface name.'),
  execResults: z.record(z.string(), execResultSchema).describe('Outcome of each entry of `execs`, under the same key.'),
});

export function checkInstance(i: InstanceInputs, config: ProvaConfig): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (i.type === 'container' && !i.image)
    issues.push({
      path: ['image'],
      message: 'is required for a container (only a virtual machine may be created empty)',
    });
  for (const k of Object.keys(i.config)) {
    if (/^(limits|volatile|image)\./.test(k))
      issues.push({
        path: ['config', k],
        message: 'may not set limits.*, volatile.* or image.* keys (use `limits` for limits)',
      });
  }
  const own = Object.fromEntries(Object.entries(i.config).filter(([k]) => !/^(limits|volatile|image)\./.test(k)));
  issues.push(...configIssues(own, { kind: 'instance' }));
  const limits = Object.fromEntries(Object.entries(i.limits).map(([k, v]) => [`limits.${k}`, v]));
  issues.push(
    ...configIssues(limits, {
      kind: 'instance',
      path: (k) => ['limits', k.replace(/^limits\./, '')],
      shown: (k) => k.replace(/^limits\./, ''),
    }),
  );
  for (const k of Object.keys(i.execs))
    if (!/^[a-z0-9_]+$/.test(k)) issues.push({ path: ['execs', k], message: 'exec keys must match [a-z0-9_]+' });
  if (i.ephemeral && !i.running)
    issues.push({ path: ['running'], message: 'an ephemeral instance cannot be stopped (the server deletes it)' });
  i.files.forEach((f, n) => {
    if ((f.content === undefined) === (f.sourcePath === undefined))
      issues.push({ path: ['files', n], message: 'needs exactly one of content and sourcePath' });
    issues.push(...fileIssues(f, ['files', n]));
  });
  issues.push(...scopeIssues(i, config));
  const imageRemote = i.image ? splitImage(i.image).remote : undefined;
  if (imageRemote !== undefined && config?.settings && !config.settings.remotes.has(imageRemote)) {
    issues.push({
      path: ['image'],
      code: 'unknown_remote',
      message: `names an image on an unknown remote "${imageRemote}"`,
    });
  }
  for (const [op, text] of Object.entries(i.timeouts)) {
    const ms = durationMs(text, -1);
    if (ms <= 0 || ms > 2 ** 31 - 1)
      issues.push({
        path: ['timeouts', op],
        code: 'invalid_value',
        message:
          ms < 0
            ? 'must be a duration like "30s", "5m" or "1h"'
            : ms === 0
              ? 'must be longer than zero'
              : 'is longer than a timer can hold (596h at most)',
      });
  }
  return issues;
}
