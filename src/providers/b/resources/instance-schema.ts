// provb:index/instance:Instance's inputs and outputs as data (every field described, for the
// reference pages and editor hovers).
import { z } from 'zod';

const noSpace = /^\S+$/;

export const instanceInputs = z
  .strictObject({
    diskImage: z
      .string()
      .min(1)
      .describe(
        'Disk image (template) id or name, e.g. `ubuntu-jammy`; see getDiskImage. Changing it forces replacement.',
      ),
    /** Blank: the network's default firewall (open to all). */
    firewallId: z
      .string()
      .describe(
        "Firewall to apply (required; may be blank): when blank, the network's default firewall (open to all) applies. Updates in place.",
      ),
    hostname: z
      .string()
      .max(63)
      .regex(noSpace, 'must not contain whitespace')
      .optional()
      .describe(
        'Fully qualified hostname, at most 63 characters, no whitespace; the API generates one when omitted. Updates in place.',
      ),
    size: z
      .string()
      .min(1)
      .default('g3.xsmall')
      .describe('Instance size name; default `g3.xsmall` (see getSize). Can only grow, in place.'),
    initialUser: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Login user created on the instance; defaults to the image's default user. Changing it forces replacement.",
      ),
    networkId: z
      .string()
      .optional()
      .describe('Private network to attach to; the default network when omitted. Changing it forces replacement.'),
    notes: z.string().optional().describe('Free-form notes kept with the instance. Updates in place.'),
    privateIpv4: z
      .string()
      .optional()
      .describe(
        'Private IPv4 address to request on the network; assigned automatically when omitted. Changing it forces replacement.',
      ),
    publicIpRequired: z
      .enum(['none', 'create'])
      .default('create')
      .describe(
        '`create` (default) gives the instance a public IPv4; `none` gives none. Changing it forces replacement.',
      ),
    region: z
      .string()
      .optional()
      .describe("Civo region code (e.g. LON1); defaults to the provider's region. Changing it forces replacement."),
    reservedIpv4: z
      .string()
      .optional()
      .describe('Reserved IP (id, name or address) to use as the public address. Updates in place.'),
    reverseDns: z
      .string()
      .regex(noSpace, 'must not contain whitespace')
      .optional()
      .describe('Reverse DNS name of the public address (no whitespace); defaults to the hostname. Updates in place.'),
    script: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Script uploaded to the instance and run as root at the end of initialization. Changing it forces replacement.',
      ),
    sshkeyId: z
      .string()
      .optional()
      .describe(
        'SSH key id to install for the initial user; when omitted, a random password is set (see `initialPassword`). Changing it forces replacement.',
      ),
    tags: z.array(z.string()).optional().describe('Tags on the instance. Update in place.'),
    volumeType: z
      .enum(['ssd', 'bssd'])
      .default('ssd')
      .describe('Root volume type: `ssd` (default) or `bssd`. Changing it forces replacement.'),
    writePassword: z
      .boolean()
      .default(false)
      .describe(
        'When true, the generated initial password is kept in state as the `initialPassword` output. Default false.',
      ),
  })
  .describe(
    'A Civo compute instance (BUILDING → ACTIVE). Hostname, reverse DNS, notes, tags, firewall, size (up only) and the reserved IP update in place; other inputs force replacement.',
  );
export type InstanceInputs = z.output<typeof instanceInputs>;

export const instanceOutputs = z.object({
  instanceId: z.string().describe('Id of the instance (the resource id).'),
  hostname: z.string().describe('Hostname as the API reports it.'),
  networkId: z.string().describe("Id of the instance's network."),
  firewallId: z.string().describe('Id of the firewall applied to the instance.'),
  initialUser: z.string().describe('Login user created on the instance.'),
  reverseDns: z.string().describe('Reverse DNS name of the public address; empty when none.'),
  cpuCores: z.number().describe('Number of CPU cores of the size.'),
  diskGb: z.number().describe('Root disk size in GB.'),
  ramMb: z.number().describe('Memory in MB.'),
  createdAt: z.string().describe('When the instance was created (timestamp).'),
  privateIp: z.string().describe('Private IPv4 address on the network.'),
  publicIp: z
    .string()
    .describe('Public IPv4 address; empty when none (a reserved IP shows here after the next refresh).'),
  sourceId: z.string().describe('Id or name of the image the instance was built from.'),
  sourceType: z.string().describe('Kind of source the instance was built from, e.g. `diskimage`.'),
  status: z.string().describe('Instance status, e.g. `BUILDING` or `ACTIVE`.'),
  initialPassword: z
    .string()
    .optional()
    .describe('Generated password of the initial user (secret); present only with `writePassword` and no SSH key.'),
});
