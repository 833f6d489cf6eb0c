// Unknown keys, found by walking a value beside its zod schema: every object key the schema does
// not name is reported at its own path, with the closest allowed key when one is near. Providers
// need no strict schemas for this; loose objects (a catchall) and maps accept any key.
import type { z } from 'zod';
import { isRef } from '../decl/ref.js';
import { isUnknown } from '../values/unknown.js';
import type { PathSegment } from '../values/path.js';
import { closest, didYouMean, preview } from './suggest.js';
import { issueFacts } from '../issue.js';
import type { ValueIssue } from './json.js';
import { defOf, fieldSchema, objectView, shapeSchema, type Def } from './zod-def.js';

/** The member of a union the value belongs to, by discriminator or by being the only object member. */
function unionMember(d: Def, value: Record<string, unknown>): z.ZodType | undefined {
  const members = (d.options ?? []).filter((o) => objectView(o));
  if (members.length === 1) return members[0];
  if (d.discriminator)
    return members.find(
      (m) => fieldSchema(objectView(m)?.shape ?? {}, d.discriminator!)?.safeParse(value[d.discriminator!]).success,
    );
  return undefined;
}

/** Every key of `value` its schema does not allow, at its path, at any depth the schema can be followed. */
export function unknownKeyIssues(
  schema: z.ZodType,
  value: unknown,
  at: PathSegment[] = [],
  into: ValueIssue[] = [],
): ValueIssue[] {
  if (value === null || typeof value !== 'object' || isRef(value) || isUnknown(value)) return into;
  const s = shapeSchema(schema);
  const d = defOf(s);
  if (!d) return into;
  if (Array.isArray(value)) {
    const element = d.type === 'array' ? d.element : d.type === 'set' ? d.valueType : undefined;
    value.forEach((v, i) => {
      const item = element ?? (d.type === 'tuple' ? (d.items?.[i] ?? d.rest ?? undefined) : undefined);
      if (item) {
        at.push(i);
        unknownKeyIssues(item, v, at, into);
        at.pop();
      }
    });
    return into;
  }
  const obj = value as Record<string, unknown>;
  if (d.type === 'record') {
    for (const k of Object.keys(obj)) {
      at.push(k);
      unknownKeyIssues(d.valueType!, obj[k], at, into);
      at.pop();
    }
    return into;
  }
  if (d.type === 'union') {
    const member = unionMember(d, obj);
    if (member) return unknownKeyIssues(member, value, at, into);
  }
  const view = objectView(s);
  if (!view) return into;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined) continue;
    const field = fieldSchema(view.shape, k);
    // A scalar, reference or unknown under a known field holds no key: the path grows only for what
    // is walked or reported.
    if (field && (v === null || typeof v !== 'object' || isRef(v) || isUnknown(v))) continue;
    at.push(k);
    if (field) unknownKeyIssues(field, v, at, into);
    else if (view.catchall) unknownKeyIssues(view.catchall, v, at, into);
    else if (!view.open) {
      // Read only for the message: most objects have no unknown key.
      const allowed = Object.keys(view.shape);
      into.push({
        path: at.slice(),
        code: 'unrecognized_keys',
        message: `${preview(k)} is not expected here.${didYouMean(k, allowed)}${allowed.length && allowed.length <= 12 ? ` Allowed: ${allowed.join(', ')}.` : ''}`,
        ...issueFacts({ suggestion: closest(k, allowed) }),
      });
    }
    at.pop();
  }
  return into;
}

type PathCheck = 'yes' | 'no' | 'unsure';

/** Whether an input path ('files[*].mode', 'config.x') can name something the schema accepts. */
export function pathInSchema(schema: z.ZodType, path: readonly PathSegment[]): PathCheck {
  let s: z.ZodType | undefined = schema;
  for (const seg of path) {
    s = shapeSchema(s);
    const d = defOf(s);
    if (!d) return 'unsure';
    if (d.type === 'array' || d.type === 'set') {
      if (typeof seg !== 'number' && seg !== '*') return 'no';
      s = d.element ?? d.valueType;
      continue;
    }
    if (d.type === 'tuple') {
      if (typeof seg !== 'number' && seg !== '*') return 'no';
      s = typeof seg === 'number' ? (d.items?.[seg] ?? d.rest ?? undefined) : undefined;
      if (!s) return seg === '*' ? 'unsure' : 'no';
      continue;
    }
    if (d.type === 'record') {
      s = d.valueType;
      continue;
    }
    const view = objectView(s);
    if (view) {
      if (seg === '*') {
        return 'unsure';
      }
      const next = fieldSchema(view.shape, String(seg));
      if (next) {
        s = next;
        continue;
      }
      return view.open ? 'unsure' : 'no';
    }
    if (['string', 'number', 'boolean', 'enum', 'literal', 'bigint', 'null', 'date'].includes(d.type)) return 'no';
    return 'unsure';
  }
  return 'yes';
}
