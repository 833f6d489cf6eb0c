// The Civo API v2 catalogue answers provider B reads (regions, sizes, disk images, Kubernetes and
// database versions), after civogo's structs; loose like the objects' schemas (objects.ts).
import { z } from 'zod';

const text = z.string();
const maybe = z.string().nullish();
const count = z.number().int();

export const region = z.looseObject({
  code: text,
  name: text,
  default: z.boolean(),
  out_of_capacity: z.boolean().optional(),
  country: text.optional(),
  country_name: text.optional(),
  type: text.optional(),
  features: z.record(z.string(), z.boolean()).optional(),
});

export const size = z.looseObject({
  name: text,
  type: text.optional(),
  nice_name: text.optional(),
  cpu_cores: count,
  ram_mb: count,
  disk_gb: count,
  gpu_count: count.optional(),
  gpu_type: maybe,
  transfer_tb: z.number().optional(),
  description: maybe,
  selectable: z.boolean().optional(),
});

export const diskImage = z.looseObject({
  id: text,
  name: text,
  version: text.optional(),
  state: text.optional(),
  initial_user: maybe,
  distribution: text.optional(),
  os: maybe,
  description: maybe,
  label: maybe,
  distribution_default: z.boolean().optional(),
});

export const kubernetesVersion = z.looseObject({
  version: text,
  label: text.optional(),
  type: text.optional(),
  default: z.boolean().optional(),
  clusterType: text.optional(),
});

/** `/v2/databases/versions`: software name → its versions. */
export const databaseVersions = z.record(
  z.string(),
  z.array(z.looseObject({ software_version: text, default: z.boolean().optional() })),
);

export type Region = z.output<typeof region>;
export type Size = z.output<typeof size>;
export type DiskImage = z.output<typeof diskImage>;
export type KubernetesVersion = z.output<typeof kubernetesVersion>;
export type DatabaseVersions = z.output<typeof databaseVersions>;
