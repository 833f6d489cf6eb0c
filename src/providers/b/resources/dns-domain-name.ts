// provb:index/dnsDomainName:DnsDomainName: an account-global DNS domain. It is renamed in place and
// imported by its domain name (read resolves a name to the domain's id).
import { readByList } from './read-many.js';
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type * as W from '../wire/objects.js';
import { missingObject } from '../errors.js';
import type { ProvbContext } from '../config.js';

export const dnsDomainNameInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Domain name, e.g. `example.com` (no whitespace). Updates in place.'),
  })
  .describe('A DNS domain managed by Civo DNS; import by domain name.');

export const dnsDomainNameOutputs = z.object({
  dnsDomainNameId: z.string().describe('Id of the domain (the resource id).'),
  accountId: z.string().describe('Id of the Civo account that owns the domain.'),
});

const outputsOf = (d: W.DnsDomain) => ({ dnsDomainNameId: d.id, accountId: d.account_id ?? '' });

/** The domain with this id, or (for imports) this name. */
async function lookup(ctx: ProvbContext, idOrName: string): Promise<W.DnsDomain | null> {
  const all = await ctx.config.client.listDomains(ctx);
  return all.find((d) => d.id === idOrName) ?? all.find((d) => d.name === idOrName) ?? null;
}

const readResult = (d: W.DnsDomain) => ({ id: d.id as string, inputs: { name: d.name }, outputs: outputsOf(d) });

export const dnsDomainName = defineResource({
  token: 'provb:index/dnsDomainName:DnsDomainName',
  inputs: dnsDomainNameInputs,
  outputs: dnsDomainNameOutputs,
  existing: async (ctx: ProvbContext, inputs) =>
    (await ctx.config.client.listDomains(ctx)).filter((x) => x.name === inputs.name).map((x) => x.id),
  create: async (ctx: ProvbContext, inputs) => {
    const d = await ctx.config.client.createDomain(ctx, inputs.name);
    return { id: d.id, outputs: outputsOf(d) };
  },
  read: async (ctx, id) => {
    const d = await lookup(ctx, id);
    return d ? readResult(d) : null;
  },
  // An id may be the domain's name (an import by name): the listing is searched by name too, as read does.
  readMany: readByList(
    (ctx) => ctx.config.client.listDomains(ctx),
    (d) => readResult(d),
    (d, id) => d.name === id,
  ),
  update: async (ctx, id, _olds, news) => {
    const d = await ctx.config.client.renameDomain(ctx, (await lookup(ctx, id))?.id ?? id, news.name);
    return { outputs: outputsOf(d) };
  },
  delete: async (ctx, id) => {
    // Gone (deleted meanwhile, or a retry after a lost answer) is not found, which the engine's delete step takes as done.
    const d = await lookup(ctx, id);
    if (!d) throw missingObject('delete DNS domain', `DNS domain ${id} was not found`);
    await ctx.config.client.deleteDomain(ctx, d.id);
  },
  // find: the domain so named if it did not exist when the create sent its request (claim.ts).
  find: async (ctx, inputs, hint) => {
    const d = claim(
      hint,
      (await ctx.config.client.listDomains(ctx)).filter((x) => x.name === inputs.name),
      { what: `DNS domain '${inputs.name}'` },
    );
    return !d || isCannotTell(d) ? d : { id: d.id, outputs: outputsOf(d) };
  },
  /** Import is by domain name ('example.com'); read turns it into the id. */
  importId: (name) => name,
});
