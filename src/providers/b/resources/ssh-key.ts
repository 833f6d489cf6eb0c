// provb:index/sshKey:SshKey: an account-global SSH public key. The name updates in place; a new
// public key forces replacement.
import { readByList } from './read-many.js';
import { z } from 'zod';
import { defineResource } from '../../../engine/provider/define.js';
import { isCannotTell } from '../../../engine/provider/define.js';
import { claim } from './claim.js';
import type * as W from '../wire/objects.js';
import { missingObject } from '../errors.js';
import type { ProvbContext } from '../config.js';

/** The keys a create of this name could have made. */
const matching = async (ctx: ProvbContext, name: string) =>
  (await ctx.config.client.listSshKeys(ctx)).filter((x) => x.name === name);

export const sshKeyInputs = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^\S+$/, 'must not contain whitespace')
      .describe('Name of the SSH key (no whitespace). Updates in place.'),
    publicKey: z
      .string()
      .min(1)
      .describe('Public key in OpenSSH format (e.g. `ssh-ed25519 AAAA...`). Changing it forces replacement.'),
  })
  .describe("An SSH public key stored in the account, for instances' `sshkeyId`.");

export const sshKeyOutputs = z.object({
  sshKeyId: z.string().describe('Id of the SSH key (the resource id).'),
  fingerprint: z.string().describe('Fingerprint of the public key as the API reports it.'),
});

const outputsOf = (k: W.SshKey) => ({ sshKeyId: k.id, fingerprint: k.fingerprint ?? '' });
const byId = async (ctx: ProvbContext, id: string) =>
  (await ctx.config.client.listSshKeys(ctx)).find((k) => k.id === id) ?? null;

const readResult = (k: W.SshKey) => ({ inputs: { name: k.name, publicKey: k.public_key }, outputs: outputsOf(k) });

export const sshKey = defineResource({
  token: 'provb:index/sshKey:SshKey',
  inputs: sshKeyInputs,
  outputs: sshKeyOutputs,
  replaceOn: ['publicKey'],
  existing: async (ctx: ProvbContext, inputs) => (await matching(ctx, inputs.name)).map((x) => x.id),
  create: async (ctx: ProvbContext, inputs) => {
    const res = await ctx.config.client.createSshKey(ctx, inputs.name, inputs.publicKey);
    const k = await byId(ctx, res.id);
    return { id: res.id, outputs: k ? outputsOf(k) : { sshKeyId: res.id, fingerprint: '' } };
  },
  read: async (ctx, id) => {
    const k = await byId(ctx, id);
    return k ? readResult(k) : null;
  },
  readMany: readByList(
    (ctx) => ctx.config.client.listSshKeys(ctx),
    (k) => readResult(k),
  ),
  update: async (ctx, id, _olds, news) => {
    await ctx.config.client.renameSshKey(ctx, id, news.name);
    const k = await byId(ctx, id);
    return { outputs: k ? outputsOf(k) : { sshKeyId: id, fingerprint: '' } };
  },
  delete: async (ctx, id) => {
    // Gone (deleted meanwhile, or a retry after a lost answer) is not found, which the engine's delete step takes as done.
    if (!(await byId(ctx, id))) throw missingObject('delete SSH key', `SSH key ${id} was not found`);
    await ctx.config.client.deleteSshKey(ctx, id);
  },
  // find: the key so named that was not there before the request (or, for a record without that
  // note, whose created_at is not before the create started: claim.ts).
  find: async (ctx, inputs, hint) => {
    const k = claim(hint, await matching(ctx, inputs.name), {
      what: `SSH key '${inputs.name}'`,
      createdAt: (x) => x.created_at,
    });
    return !k || isCannotTell(k) ? k : { id: k.id, outputs: outputsOf(k) };
  },
  importId: (id) => id,
});
