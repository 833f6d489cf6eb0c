// provb:index/dnsDomainRecord:DnsDomainRecord: a record in a DNS domain. Every field updates in place
// (the API re-sends the whole record). Its id, and its import id, is `<domain_id>:<record_id>`.
import { isIP, isIPv4 } from 'node:net';
import { z } from 'zod';
import { defineResource, type CheckIssue } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type * as W from '../wire/objects.js';
import { orNull } from '../../../kit/gone.js';
import type { ProvbContext } from '../config.js';
import { reporter } from './reported.js';
import { defined } from '../../../kit/wire.js';
import type { Prior, ReadResult } from '../../../engine/provider/define.js';
import { readGroupedById } from './read-many.js';

const TYPES = ['a', 'cname', 'mx', 'txt', 'srv', 'ns'] as const;
const HOSTNAME =
  /^(?=.{1,253}\.?$)(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.?$/;

export const dnsDomainRecordInputs = z
  .strictObject({
    domainId: z.string().min(1).describe('Id of the DNS domain that holds the record. Changing it forces replacement.'),
    /** `a`, `cname`, `mx` or `txt` (also `srv`, `ns`); any case. */
    type: z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(TYPES))
      .describe('Record type: `a`, `cname`, `mx` or `txt` (also `srv`, `ns`); any case, stored lower-case.'),
    value: z.string().min(1).describe('Record value: an IP address (A or MX), a hostname (CNAME or MX) or text (TXT).'),
    ttl: z.number().int().min(600).default(600).describe('Time to live in seconds; minimum 600, default 600.'),
    /** The part before the domain name, or '@' for the apex. */
    name: z
      .string()
      .min(1)
      .default('@')
      .describe(
        'The part before the domain name, or `@` (the default) for the apex; an A record cannot be used at the apex.',
      ),
    /** MX only; the API uses 10 when none is given. */
    priority: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('MX priority (MX records only); the API uses 10 when omitted.'),
  })
  .describe(
    'A record in a DNS domain; every field but the domain updates in place. Import by `<domainId>:<recordId>`.',
  );
type RecordInputs = z.output<typeof dnsDomainRecordInputs>;

export const dnsDomainRecordOutputs = z.object({
  dnsDomainRecordId: z.string().describe('Id of the record (the resource id is `<domainId>:<recordId>`).'),
  accountId: z.string().describe('Id of the Civo account that owns the record.'),
  createdAt: z.string().describe('When the record was created (timestamp).'),
  updatedAt: z.string().describe('When the record was last updated (timestamp).'),
  priority: z.number().describe('MX priority as stored (0 for other types).'),
});

const outputsOf = (r: W.DnsRecord) => ({
  dnsDomainRecordId: r.id,
  accountId: r.account_id ?? '',
  createdAt: r.created_at ?? '',
  updatedAt: r.updated_at ?? '',
  priority: r.priority ?? 0,
});
const body = (i: RecordInputs) => ({
  type: i.type.toUpperCase(),
  name: i.name,
  value: i.value,
  priority: i.priority ?? (i.type === 'mx' ? 10 : 0),
  ttl: i.ttl,
});

function checkRecord(i: RecordInputs): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (i.priority !== undefined && i.type !== 'mx')
    issues.push({
      path: ['priority'],
      code: 'invalid_value',
      message: `is allowed only for MX records, not ${i.type.toUpperCase()}`,
    });
  if (i.ttl > 3600)
    issues.push({
      path: ['ttl'],
      code: 'too_big',
      message: 'must be at most 3600 seconds (the API takes 600 to 3600)',
    });
  if (i.type === 'a' && !isIPv4(i.value))
    issues.push({ path: ['value'], code: 'invalid_format', message: "an A record's value must be an IPv4 address" });
  if ((i.type === 'cname' || (i.type === 'mx' && !isIP(i.value))) && !HOSTNAME.test(i.value))
    issues.push({
      path: ['value'],
      code: 'invalid_format',
      message: `a ${i.type.toUpperCase()} record's value must be a hostname${i.type === 'mx' ? ' or an IP address' : ''}`,
    });
  if (i.type === 'a' && i.name === '@')
    issues.push({ path: ['name'], code: 'invalid_value', message: "an A record cannot be used at the apex '@'" });
  if (i.type === 'cname' && i.name === '@')
    issues.push({ path: ['name'], code: 'invalid_value', message: "a CNAME record cannot be used at the apex '@'" });
  return issues;
}

function split(id: string): [string, string] {
  const parts = id.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw new TypeError(`Expected a DNS record id like '<domain_id>:<record_id>', got '${id}'`);
  return parts as [string, string];
}

/** The records a create of these inputs could have made (its key: name, type and value in the domain). */
async function matching(
  ctx: ProvbContext,
  inputs: { domainId: string; name: string; type: string; value: string },
): Promise<W.DnsRecord[]> {
  const records = (await orNull(() => ctx.config.client.listRecords(ctx, inputs.domainId))) ?? [];
  return records.filter(
    (x) => x.name === inputs.name && String(x.type).toLowerCase() === inputs.type && x.value === inputs.value,
  );
}

async function fetchRecord(ctx: ProvbContext, id: string): Promise<W.DnsRecord | null> {
  const [dom, rec] = split(id);
  const records = await orNull(() => ctx.config.client.listRecords(ctx, dom));
  return records?.find((r) => r.id === rec) ?? null;
}

/** What read answers for a listed record. */
function recordResult(r: W.DnsRecord, prior: Prior): ReadResult {
  const rep = reporter(prior);
  const inputs: RecordInputs = defined({
    domainId: r.domain_id,
    type: String(r.type).toLowerCase() as RecordInputs['type'],
    value: r.value,
    ttl: r.ttl,
    name: r.name,
    priority: rep.importing
      ? r.type === 'MX'
        ? r.priority
        : undefined
      : rep.kept('priority') === undefined
        ? undefined
        : r.priority,
  });
  return { inputs, outputs: outputsOf(r) };
}

export const dnsDomainRecord = defineResource({
  token: 'provb:index/dnsDomainRecord:DnsDomainRecord',
  inputs: dnsDomainRecordInputs,
  outputs: dnsDomainRecordOutputs,
  replaceOn: ['domainId'],
  computedOnUpdate: ['updatedAt', 'priority'],
  check: (inputs) => checkRecord(inputs),
  existing: async (ctx: ProvbContext, inputs) => (await matching(ctx, inputs)).map((x) => x.id),
  create: async (ctx: ProvbContext, inputs) => {
    const r = await ctx.config.client.createRecord(ctx, inputs.domainId, body(inputs));
    return { id: `${inputs.domainId}:${r.id}`, outputs: outputsOf(r) };
  },
  read: async (ctx, id, prior) => {
    const r = await fetchRecord(ctx, id);
    return r ? recordResult(r, prior) : null;
  },
  // One listing per domain (a deleted domain: every record of it is gone).
  readMany: readGroupedById({
    groupOf: (_ctx, it) => split(it.id)[0]!,
    list: (ctx, domainId) => orNull(() => ctx.config.client.listRecords(ctx, domainId)),
    pick: (listed, _all, id) => listed.get(split(id)[1]!),
    toResult: (r, prior) => recordResult(r, prior),
  }),
  update: async (ctx, id, _olds, news) => {
    const [dom, rec] = split(id);
    return { outputs: outputsOf(await ctx.config.client.updateRecord(ctx, dom, rec, body(news))) };
  },
  delete: async (ctx, id) => {
    const [dom, rec] = split(id);
    await ctx.config.client.deleteRecord(ctx, dom, rec);
  },
  // find: the record of that name, type and value that was not there before the request (or, for a
  // record without that note, whose created_at is not before the create started: claim.ts).
  find: async (ctx, inputs, hint) => {
    const r = claim(hint, await matching(ctx, inputs), {
      what: `DNS record ${inputs.type} ${inputs.name}`,
      createdAt: (x) => x.created_at,
    });
    return !r || isCannotTell(r) ? r : { id: `${inputs.domainId}:${r.id}`, outputs: outputsOf(r) };
  },
  importId: (id) => {
    split(id);
    return id;
  },
});
