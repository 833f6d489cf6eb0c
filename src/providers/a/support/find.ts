// `find` for named LXD objects (the contract in engine/provider/define.ts): after a create whose
// outcome is unknown, the object of that name is this create's only when it carries the create's
// operation id under OPERATION_KEY. Any other object of that name existed before (or is another
// stack's): the create cannot have made it (names are unique), so the answer is null, never adoption.
import type { FindHint } from '../../../engine/provider/define.js';
import type { Ctx, LxdClient } from '../client.js';
import { OPERATION_KEY } from './keys.js';
import { getObject, type Where } from './objects.js';

/** The object at `w` when its config carries `hint.operationId`; null when absent or someone else's. */
export async function findTagged<T extends { config?: Record<string, string> | null }>(
  ctx: Ctx,
  client: LxdClient,
  w: Where,
  hint: FindHint,
): Promise<T | null> {
  const got = await getObject<T>(ctx, client, w);
  return got && isOurs(got.obj.config, hint) ? got.obj : null;
}

/** True when a config (or device) map carries this create's operation id. */
export function isOurs(config: Readonly<Record<string, string>> | null | undefined, hint: FindHint): boolean {
  return !!hint.operationId && config?.[OPERATION_KEY] === hint.operationId;
}
