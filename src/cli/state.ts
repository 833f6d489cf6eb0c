// `converge state list|show|rm|mv` and `converge force-unlock`: the engine's state operations,
// printed. show prints the record with secrets as "(sensitive value)".
import { isSensitive } from '../engine/values/secret.js';
import { LockHolderAliveError } from '../state/errors.js';
import { closeAll, openStack, type Common } from './commands.js';
import { confirm, type Io } from './io.js';

export async function stateList(io: Io, flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    for (const e of await engine.stateList())
      io.out(
        `${e.address}${e.deposedKey ? ` (deposed ${e.deposedKey})` : ''}\t${e.type}\t${e.id}${e.tainted ? '\t(tainted)' : ''}`,
      );
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function stateShow(io: Io, address: string, flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    const r = await engine.stateShow(address);
    io.out(
      JSON.stringify(
        {
          address: r.name,
          type: r.type,
          provider: r.provider,
          id: r.id,
          inputs: r.inputs,
          outputs: r.outputs,
          dependencies: r.dependencies,
          options: r.options,
          ...(r.tainted ? { tainted: true } : {}),
        },
        (_k, v) => (isSensitive(v) ? '(sensitive value)' : v),
        2,
      ),
    );
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function stateRm(io: Io, addresses: string[], flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    const gone = await engine.stateRm(addresses);
    for (const a of gone) io.out(`Removed ${a} from the state (the object itself is left as it is).`);
    return 0;
  } finally {
    await closeAll(stack);
  }
}

export async function stateMv(io: Io, from: string, to: string, flags: Common): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    await engine.stateMv(from, to);
    io.out(`Moved ${from} to ${to}.`);
    return 0;
  } finally {
    await closeAll(stack);
  }
}

/**
 * `converge force-unlock [--force] <id>`: a lock whose holder is gone is released at once; one whose
 * holder is alive (or cannot be checked) only with --force, or after a 'yes' on a terminal.
 */
export async function forceUnlockCommand(
  io: Io,
  id: string,
  flags: Common & { readonly force?: boolean },
): Promise<number> {
  const { stack, engine } = await openStack(flags);
  try {
    try {
      await engine.forceUnlock(id, { force: flags.force === true });
      io.out(
        flags.force
          ? `Lock ${id} released (forced). If its holder was still writing, plan again once it has stopped.`
          : `Lock ${id} released: its holder is gone. Check that its operation left nothing half done (converge plan shows it).`,
      );
      return 0;
    } catch (e) {
      if (!(e instanceof LockHolderAliveError) || flags.force || !io.isTTY || !process.stdin.isTTY) throw e;
      const ok = await confirm(
        io,
        `${e.message.split('\n')[0]}\n\nDo you really want to release it?\n  Only 'yes' will be accepted to confirm.\n`,
      );
      if (!ok) {
        io.err('Force-unlock cancelled; the lock is still held.');
        return 1;
      }
      await engine.forceUnlock(id, { force: true });
      io.out(`Lock ${id} released (confirmed). If its holder was still writing, plan again once it has stopped.`);
      return 0;
    }
  } finally {
    await closeAll(stack);
  }
}
