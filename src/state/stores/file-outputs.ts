// The file store's outputs sidecar, `<path>.outputs`: the outputs of the state file whose stamp it
// carries, sealed as the state seals them. Written after the state file whenever the state has
// outputs (and removed when it has none), so another stack reads a stack's outputs without
// parsing any resource; a reader trusts it only while the state file still has that stamp and the
// journal is empty, else the whole state answers (a crash between the two writes leaves a sidecar
// that no longer matches, never a wrong answer).
import { readFile, stat, unlink } from 'node:fs/promises';
import type { StackOutput, State } from '../model.js';
import type { OutputsSnapshot } from '../store.js';
import type { EncryptionHeader, SecretCodec } from '../crypto.js';
import { mapValues } from '../keys.js';
import { stampOf, writeAtomic } from './file-io.js';

const SIDECAR_FORMAT = 'converge-outputs';

type Sidecar = {
  readonly format: typeof SIDECAR_FORMAT;
  readonly lineage: string;
  readonly serial: number;
  /** The state file it was written with (inode, mtime, size). */
  readonly stamp: string;
  readonly encryption?: EncryptionHeader;
  readonly outputs: Record<string, StackOutput>;
};

/** Writes (or removes, when the state has no outputs) the sidecar of the state file just written with `stamp`. */
export async function writeSidecar(path: string, state: State, codec: SecretCodec, stamp: string): Promise<void> {
  const outputs = state.outputs ?? {};
  if (Object.keys(outputs).length === 0) {
    await unlink(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    return;
  }
  const sidecar: Sidecar = {
    format: SIDECAR_FORMAT,
    lineage: state.lineage,
    serial: state.serial,
    stamp,
    ...(codec.header ? { encryption: codec.header } : {}),
    outputs: mapValues(outputs, (o) => codec.sealResource(o)),
  };
  await writeAtomic(path, JSON.stringify(sidecar));
}

/**
 * The sidecar's outputs when it still describes the files (the state file it was written with, an
 * empty journal); undefined when it is missing, torn or stale. `codecFor` opens secret values.
 */
export async function readSidecar(
  files: { readonly sidecar: string; readonly state: string; readonly journal: string },
  codecFor: (header: EncryptionHeader | undefined) => Promise<SecretCodec>,
): Promise<OutputsSnapshot | undefined> {
  let text: string;
  try {
    text = await readFile(files.sidecar, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let side: Sidecar;
  try {
    side = JSON.parse(text) as Sidecar;
  } catch {
    return undefined;
  }
  if (side?.format !== SIDECAR_FORMAT || typeof side.outputs !== 'object' || side.outputs === null) return undefined;
  if ((await stampOf(files.state)) !== side.stamp) return undefined;
  const journal = await stat(files.journal).then(
    (s) => s.size,
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return 0;
      throw e;
    },
  );
  if (journal !== 0) return undefined;
  const codec = await codecFor(side.encryption);
  return {
    exists: true,
    lineage: side.lineage,
    serial: side.serial,
    outputs: mapValues(side.outputs, (o) => codec.openResource(o)),
  };
}

/** The outputs of a state read whole (the sidecar's fallback). */
export function outputsOf(state: State): OutputsSnapshot {
  return { exists: state.serial > 0, lineage: state.lineage, serial: state.serial, outputs: state.outputs ?? {} };
}
