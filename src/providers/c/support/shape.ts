// Wire objects → the seed's camelCase shapes. Keys are camel-cased at every depth except inside
// values whose keys are data (CDN `options` keep the vendor's option names; `addresses` keep the
// network names as keys), and PascalCase keys (blackhole ports) stay as the vendor sends them.

/** 'originGroup_name' → 'originGroupName', 'cert_subject_cn' → 'certSubjectCn'. */
export function camelKey(key: string): string {
  return key.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Camel-cases keys deeply; keys listed in `opaque` keep their value untouched, `dataKeys` keep their own keys. */
export function camelize(
  value: unknown,
  opts: { opaque?: readonly string[]; dataKeys?: readonly string[] } = {},
): unknown {
  if (Array.isArray(value)) return value.map((v) => camelize(v, opts));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = camelKey(k);
    if (opts.opaque?.includes(k)) out[key] = v;
    else if (opts.dataKeys?.includes(k) && v && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = Object.fromEntries(Object.entries(v).map(([dk, dv]) => [dk, camelize(dv, opts)]));
    } else out[key] = camelize(v, opts);
  }
  return out;
}

/** Tags on Cloud objects: the wire's [{key, value, read_only}] as [{key, value, readOnly}]. */
export type Tag = { readonly key: string; readonly value: string; readonly readOnly: boolean };

/** The user-settable tags as a plain map (read-only tags are the vendor's). */
export function tagMap(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(tags))
    for (const t of tags as { key: string; value: string; read_only?: boolean }[])
      if (!t.read_only) out[t.key] = t.value;
  return out;
}

/**
 * Every field the seed lists for an object, present: a field the API leaves out or sends as null is
 * null in the output (for CDN rules and templates null means "inherited"), never dropped.
 */
export function withSeedFields<T extends Record<string, unknown>>(o: T, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...o };
  for (const f of fields) if (out[f] === undefined) out[f] = null;
  return out as T;
}

/** The seed's field lists (seed 002, "Resources and their fields"). */
export const SEED_FIELDS = {
  cdnCertificate: [
    'automated',
    'certIssuer',
    'certSubjectAlt',
    'certSubjectCn',
    'deleted',
    'hasRelatedResources',
    'id',
    'name',
    'sslCertificateChain',
    'sslId',
    'validityNotAfter',
    'validityNotBefore',
  ],
  cdnOriginGroup: [
    'id',
    'originGroupId',
    'name',
    'sources',
    'proxyNextUpstreams',
    'useNext',
    'hasRelatedResources',
    'auth',
    'authType',
    'path',
  ],
  cdnResource: [
    'active',
    'canPurgeByUrls',
    'client',
    'cname',
    'created',
    'deleted',
    'description',
    'enabled',
    'fullCustomEnabled',
    'id',
    'isPrimary',
    'name',
    'options',
    'originGroup',
    'originGroupName',
    'originProtocol',
    'presetApplied',
    'primaryResource',
    'proxySslCa',
    'proxySslData',
    'proxySslEnabled',
    'resourceId',
    'rules',
    'secondaryHostnames',
    'shieldDc',
    'shieldEnabled',
    'shieldRoutingMap',
    'shielded',
    'sslData',
    'sslEnabled',
    'status',
    'suspendDate',
    'suspended',
    'updated',
    'vpEnabled',
    'waapDomainId',
  ],
  cdnResourceRule: [
    'active',
    'deleted',
    'id',
    'name',
    'options',
    'originGroup',
    'originProtocol',
    'overrideOriginProtocol',
    'presetApplied',
    'primaryRule',
    'resourceId',
    'rule',
    'ruleId',
    'ruleType',
    'weight',
  ],
  cdnRuleTemplate: [
    'client',
    'default',
    'deleted',
    'id',
    'name',
    'options',
    'overrideOriginProtocol',
    'rule',
    'ruleTemplateId',
    'ruleType',
    'template',
    'weight',
  ],
  cdnTrustedCaCertificate: [
    'certIssuer',
    'certSubjectAlt',
    'certSubjectCn',
    'deleted',
    'hasRelatedResources',
    'id',
    'name',
    'sslCertificateChain',
    'validityNotAfter',
    'validityNotBefore',
  ],
  baremetalServer: [
    'addresses',
    'blackholePorts',
    'createdAt',
    'creatorTaskId',
    'fixedIpAssignments',
    'flavor',
    'id',
    'instanceIsolation',
    'name',
    'projectId',
    'region',
    'regionId',
    'serverId',
    'sshKeyName',
    'status',
    'tags',
    'taskId',
    'taskState',
    'vmState',
  ],
  floatingIp: [
    'createdAt',
    'creatorTaskId',
    'fixedIpAddress',
    'floatingIpAddress',
    'id',
    'portId',
    'projectId',
    'region',
    'regionId',
    'routerId',
    'status',
    'tags',
    'updatedAt',
  ],
  gpuCluster: [
    'clusterId',
    'createdAt',
    'flavor',
    'hasPendingChanges',
    'id',
    'name',
    'projectId',
    'regionId',
    'serversCount',
    'serversIds',
    'serversSettings',
    'status',
    'tags',
    'updatedAt',
  ],
  gpuBaremetalCluster: ['imageId', 'managedBy'],
  gpuImage: [
    'architecture',
    'createdAt',
    'gpuDriver',
    'gpuDriverType',
    'gpuDriverVersion',
    'id',
    'imageId',
    'minDisk',
    'minRam',
    'name',
    'osDistro',
    'osType',
    'osVersion',
    'projectId',
    'regionId',
    'size',
    'sshKey',
    'status',
    'tags',
    'updatedAt',
    'visibility',
  ],
  inferenceFlavor: [
    'cpu',
    'description',
    'flavorName',
    'gpu',
    'gpuComputeCapability',
    'gpuMemory',
    'gpuModel',
    'id',
    'isGpuShared',
    'memory',
    'name',
  ],
} as const;
