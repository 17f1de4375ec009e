import type { Message } from '../../messages/message.js';
import { checkpointReasons } from './notes.js';
import type { CommandRecord } from './records.js';

/**
 * A driver's checkpoint as the journal keeps it: `{driver, version, data}`, where `driver` is the
 * factory kind that wrote it and `version` that driver's `checkpointVersion` (1 by default). A
 * checkpoint is what lets a driver tell, after a crash, whether a receipt was printed or a card
 * cut; handing it to a driver that cannot read it could make that driver answer "not done" and
 * run the job twice. So the core opens it first: a checkpoint of another driver or version, or one
 * that is not readable at all, is never shown to the driver — the job ends as unknown.
 *
 * Journals written before the envelope hold the driver's value as it was: such a value is read as
 * version 1 of the driver configured now.
 */

export interface CheckpointEnvelope {
  driver: string;
  version: number;
  data: unknown;
}

/** Which driver, at which checkpoint version, drives the device now. */
export interface CheckpointOwner {
  driverKind: string;
  checkpointVersion?: number;
}

export type OpenedCheckpoint =
  /** `data` undefined: the driver never stored one. */
  | { ok: true; data?: unknown }
  /** Not for this driver: why, in words appended to the receptionist's note. */
  | { ok: false; reason: Message };

const versionOf = (owner: CheckpointOwner): number => owner.checkpointVersion ?? 1;

/** The envelope for a value a driver stores (`undefined` is kept as `null`, as JSON keeps it). */
export function sealCheckpoint(owner: CheckpointOwner, data: unknown): CheckpointEnvelope {
  return { driver: owner.driverKind, version: versionOf(owner), data: data ?? null };
}

function isEnvelope(value: unknown): value is CheckpointEnvelope {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const { driver, version } = value as Record<string, unknown>;
  return (
    keys.length === 3 &&
    keys.includes('data') &&
    typeof driver === 'string' &&
    typeof version === 'number' &&
    Number.isInteger(version) &&
    version >= 1
  );
}

/** The checkpoint of `record` for the driver `owner` names, or why that driver must not see it. */
export function openCheckpoint(
  record: Pick<CommandRecord, 'checkpoint' | 'checkpointUnreadable'>,
  owner: CheckpointOwner,
): OpenedCheckpoint {
  if (record.checkpointUnreadable) return { ok: false, reason: checkpointReasons.unreadable };
  const stored = record.checkpoint;
  if (stored === undefined) return { ok: true };
  const envelope: CheckpointEnvelope = isEnvelope(stored)
    ? stored
    : { driver: owner.driverKind, version: 1, data: stored };
  if (envelope.driver !== owner.driverKind) {
    return { ok: false, reason: checkpointReasons.otherDriver(envelope.driver, owner.driverKind) };
  }
  if (envelope.version !== versionOf(owner)) {
    return {
      ok: false,
      reason: checkpointReasons.otherVersion(envelope.driver, envelope.version, versionOf(owner)),
    };
  }
  return { ok: true, data: envelope.data };
}
