// Auth permission entities: entity type + args ⇄ the entity URL LXD stores. Project-scoped types
// always carry ?project= (even for default); a member location adds ?target=.

export type EntityArgs = Record<string, string>;

const projectScoped: Record<string, string> = {
  instance: 'instances',
  network: 'networks',
  profile: 'profiles',
  image: 'images',
  image_alias: 'images/aliases',
  network_acl: 'network-acls',
  network_zone: 'network-zones',
  storage_bucket: 'storage-buckets',
};

/** Builds the URL of an entity; throws a plain Error naming the missing argument. */
export function entityUrl(type: string, args: EntityArgs): string {
  const need = (k: string) => {
    const v = args[k];
    if (!v) throw new Error(`entityArgs.${k} is required for entity type ${type}`);
    return encodeURIComponent(v);
  };
  let url: string;
  if (type === 'server') url = '/1.0';
  else if (type === 'project') url = `/1.0/projects/${need('name')}`;
  else if (type === 'storage_pool') url = `/1.0/storage-pools/${need('name')}`;
  else if (type === 'group') url = `/1.0/auth/groups/${need('name')}`;
  else if (type === 'identity') url = `/1.0/auth/identities/${need('authentication_method')}/${need('name')}`;
  else if (type === 'certificate') url = `/1.0/certificates/${need('name')}`;
  else if (type === 'storage_volume')
    url = `/1.0/storage-pools/${need('pool')}/volumes/${need('type')}/${need('name')}?project=${need('project')}`;
  else if (projectScoped[type]) url = `/1.0/${projectScoped[type]}/${need('name')}?project=${need('project')}`;
  else throw new Error(`entity type ${type} is not supported`);
  if (args.location) url += `${url.includes('?') ? '&' : '?'}target=${encodeURIComponent(args.location)}`;
  return url;
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
