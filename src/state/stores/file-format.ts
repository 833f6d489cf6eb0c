// The file store's format: the state file as written (secret values sealed), and read back: parsed
// and checked (lineage, serial and resources present; older versions migrated), and the journal's
// records replayed on it in order.
import type { EncryptionHeader, SecretCodec } from '../crypto.js';
import type { State } from '../model.js';
import { mapValues } from '../keys.js';
import { applyRecord, decodeJournal, type RawState } from '../journal.js';
import { migrateRaw } from '../migrate.js';
import { StateCorruptError } from '../errors.js';

/** The state file's content for `state`: its secret values sealed, the encryption header beside them. */
export function sealedStateFile(state: State, codec: SecretCodec): Record<string, unknown> {
  return {
    version: state.version,
    lineage: state.lineage,
    serial: state.serial,
    ...(codec.header ? { encryption: codec.header } : {}),
    resources: mapValues(state.resources, (r) => codec.sealResource(r)),
    pending: mapValues(state.pending, (p) => codec.sealResource(p)),
    deposed: mapValues(state.deposed, (d) => codec.sealResource(d)),
    ...(state.outputs && Object.keys(state.outputs).length
      ? { outputs: mapValues(state.outputs, (o) => codec.sealResource(o)) }
      : {}),
  };
}

/** The state file's text as a raw state and its encryption header; StateCorruptError when it is not a state. */
export function parseStateFile(
  text: string,
  location: string,
): { readonly raw: RawState; readonly encryption: EncryptionHeader | undefined } {
  let parsed: RawState & { encryption?: EncryptionHeader };
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new StateCorruptError(location, 'the state file is not valid JSON', { cause });
  }
  if (
    typeof parsed?.serial !== 'number' ||
    typeof parsed.lineage !== 'string' ||
    typeof parsed.resources !== 'object'
  ) {
    throw new StateCorruptError(location, 'the state file lacks lineage, serial or resources');
  }
  const { encryption, ...rest } = parsed;
  const raw: RawState = { ...rest, pending: rest.pending ?? {}, deposed: rest.deposed ?? {} };
  migrateRaw(raw);
  return { raw, encryption };
}

/**
 * Applies the journal's records newer than `raw` to it, in order; a record that does not follow the
 * one before, or a corrupt record followed by valid ones, is StateCorruptError. Answers where the
 * valid records end and how many torn bytes follow them (a write cut short: dropped, not corrupt).
 */
export function replayJournal(
  raw: RawState,
  journal: Buffer,
  location: string,
  journalPath: string,
): { readonly validLength: number; readonly tornBytes: number } {
  const d = decodeJournal(journal);
  if ('corruptAt' in d)
    throw new StateCorruptError(
      location,
      `the journal ${journalPath} has a corrupt record at byte ${d.corruptAt} followed by valid ones`,
    );
  for (const rec of d.records) {
    if (rec.serial <= raw.serial) continue;
    if (rec.baseSerial !== raw.serial) {
      throw new StateCorruptError(
        location,
        `the journal jumps from serial ${raw.serial} to a record based on serial ${rec.baseSerial}`,
      );
    }
    applyRecord(raw, rec);
  }
  return { validLength: d.validLength, tornBytes: d.tornBytes };
}
