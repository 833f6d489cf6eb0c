// Auth permission entities: entity type + args ⇄ the entity URL LXD stores. Project-scoped types
// always carry ?project= (even for default); a member location adds ?target=.

import { fillPath } from '../../../kit/wire.js';

export type EntityArgs = Record<string, string>;

/** The URL template of each entity type, filled by name from the entity's args; project-scoped types carry ?project=. */
const templates: Readonly<Record<string, string>> = {
  server: '/1.0',
  project: '/1.0/projects/{name}',
  storage_pool: '/1.0/storage-pools/{name}',
  group: '/1.0/auth/groups/{name}',
  identity: '/1.0/auth/identities/{authentication_method}/{name}',
  certificate: '/1.0/certificates/{name}',
  storage_volume: '/1.0/storage-pools/{pool}/volumes/{type}/{name}?project={project}',
  instance: '/1.0/instances/{name}?project={project}',
  network: '/1.0/networks/{name}?project={project}',
  profile: '/1.0/profiles/{name}?project={project}',
  image: '/1.0/images/{name}?project={project}',
  image_alias: '/1.0/images/aliases/{name}?project={project}',
  network_acl: '/1.0/network-acls/{name}?project={project}',
  network_zone: '/1.0/network-zones/{name}?project={project}',
  storage_bucket: '/1.0/storage-buckets/{name}?project={project}',
};

/** Builds the URL of an entity; throws a plain Error naming the missing argument. */
export function entityUrl(type: string, args: EntityArgs): string {
  const template = Object.prototype.hasOwnProperty.call(templates, type) ? templates[type] : undefined;
  if (!template) throw new Error(`entity type ${type} is not supported`);
  for (const [, k] of template.matchAll(/\{(\w+)\}/g))
    if (!args[k!]) throw new Error(`entityArgs.${k} is required for entity type ${type}`);
  const url = fillPath(template, args);
  return args.location ? `${url}${url.includes('?') ? '&' : '?'}target=${encodeURIComponent(args.location)}` : url;
}

/** The args of an entity URL (the reverse of entityUrl). */
export function entityArgs(type: string, url: string): EntityArgs {
  const u = new URL(url, 'http://lxd');
  const parts = u.pathname.split('/').slice(2).map(decodeURIComponent);
  const out: EntityArgs = {};
  const project = u.searchParams.get('project');
  const target = u.searchParams.get('target');
  if (type === 'identity') {
    out.authentication_method = parts[3] ?? '';
    out.name = parts[4] ?? '';
  } else if (type === 'storage_volume') {
    out.pool = parts[1] ?? '';
    out.type = parts[3] ?? '';
    out.name = parts[4] ?? '';
  } else if (type !== 'server') out.name = parts.at(-1) ?? '';
  if (project) out.project = project;
  if (target) out.location = target;
  return out;
}
