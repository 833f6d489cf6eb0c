// Object ids and import ids, one grammar (ParseImportID): `[remote:][project/]f1[/f2…][,key=value…]`.
// Only the part before the first '/' is scanned for the remote, so IPv6 addresses after it are safe;
// a multi-field id's first segment is always the project (possibly empty: the default project).
import { ConfigError } from '../../../engine/errors.js';

export type ObjectId = {
  readonly remote: string;
  readonly project: string;
  readonly fields: readonly string[];
  readonly options: Readonly<Record<string, string>>;
};

/** Parses an id of `fieldCount` fields; `defaultRemote` fills a missing remote. Throws on bad grammar. */
export function parseId(id: string, fieldCount: number, defaultRemote: string, what: string): ObjectId {
  const [main = '', ...opts] = id.split(',');
  const options: Record<string, string> = {};
  for (const o of opts) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw bad(what, id, `option "${o}" is not key=value`);
    options[o.slice(0, eq)] = o.slice(eq + 1);
  }
  const slash = main.indexOf('/');
  const head = slash < 0 ? main : main.slice(0, slash);
  const colon = head.indexOf(':');
  const remote = colon >= 0 ? head.slice(0, colon) : '';
  const rest = colon >= 0 ? main.slice(colon + 1) : main;
  const parts = rest.split('/');
  let project: string;
  let fields: string[];
  if (fieldCount === 1) {
    if (parts.length > 2) throw bad(what, id, 'has too many "/"-separated parts');
    project = parts.length === 2 ? parts[0]! : '';
    fields = [parts.at(-1)!];
  } else {
    if (parts.length !== fieldCount + 1)
      throw bad(what, id, `needs a project segment (possibly empty) and ${fieldCount} fields`);
    project = parts[0]!;
    fields = parts.slice(1);
  }
  if (fields.some((f) => f === '')) throw bad(what, id, 'has an empty name');
  return { remote: remote || defaultRemote, project: project || 'default', fields, options };
}

/** The canonical id: always with remote and project, so parseId gives back the same parts. */
export function formatId(
  remote: string,
  project: string | undefined,
  fields: readonly string[],
  options: Readonly<Record<string, string>> = {},
): string {
  const opts = Object.entries(options)
    .map(([k, v]) => `,${k}=${v}`)
    .join('');
  return `${remote}:${project || 'default'}/${fields.join('/')}${opts}`;
}

function bad(what: string, id: string, reason: string): ConfigError {
  return new ConfigError('prova', `import id "${id}" of ${what}`, `is not valid: ${reason}`);
}

/** The `project` and `remote` inputs a read reports: the prior's, or the id's when they are not the defaults. */
export function scopeInputs(
  prior: Readonly<Record<string, unknown>>,
  ref: ObjectId,
  defaultRemote: string,
  withProject = true,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof prior.remote === 'string') out.remote = prior.remote;
  else if (ref.remote !== defaultRemote) out.remote = ref.remote;
  if (withProject) {
    if (typeof prior.project === 'string') out.project = prior.project;
    else if (ref.project !== 'default') out.project = ref.project;
  }
  if (typeof prior.target === 'string') out.target = prior.target;
  return out;
}
