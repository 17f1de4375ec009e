import type { PlatformCommand } from '../../connector/model.js';
import type { CommandState } from '../../connector/wire.js';
import type { SerializedError } from '../../errors.js';
import { readMessage, readStoredMessage } from '../../messages/message.js';
import type { CommandRecord, Outcome, Phase, ReportedResult } from '../rules/index.js';

/** A `commands` row as SQLite returns it. */
export interface CommandRow {
  id: string;
  device_id: string;
  device_name: string;
  device_type: string;
  kind: string;
  source: string | null;
  command_json: string | null;
  phase: string;
  state: string;
  outcome: string | null;
  attempt: number;
  created_utc: string | null;
  seen_at: number;
  started_at: number | null;
  finished_at: number | null;
  pickup_ms: number | null;
  progress: number | null;
  checkpoint_json: string | null;
  result_json: string | null;
  error_json: string | null;
  notes: string | null;
  timeline_json: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/**
 * The stored checkpoint. Unlike every other column, one that is not JSON is not a journal error:
 * it is the one thing that says what a started job did, and the engine must then end the job as
 * unknown (never run it again), so the record says so instead of failing to load.
 */
function checkpointOf(text: string | null): Pick<CommandRecord, 'checkpoint' | 'checkpointUnreadable'> {
  if (text === null) return {};
  try {
    return { checkpoint: JSON.parse(text) as unknown };
  } catch {
    return { checkpointUnreadable: true };
  }
}

/**
 * Notes are catalogue messages as JSON; a journal written by an older build holds sentences (in
 * the `notes` column, and as `notes` of the stored result and error): those read as text messages.
 */
function withMessage<T extends { notes: unknown }>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : { ...value, notes: readMessage(value.notes) };
}

/** Builds the record from a row; `parseJson` rejects with JOURNAL_ERROR on unreadable JSON. */
export function rowToRecord(
  row: CommandRow,
  parseJson: (text: string, what: string) => unknown,
): CommandRecord {
  const p = <T>(text: string | null, what: string): T | undefined =>
    text === null ? undefined : (parseJson(text, `${what} of ${row.id}`) as T);
  const record: CommandRecord = {
    id: row.id,
    deviceId: row.device_id,
    deviceName: row.device_name,
    deviceType: row.device_type,
    kind: row.kind,
    source: opt(row.source) as PlatformCommand['source'] | undefined,
    command: p<PlatformCommand>(row.command_json, 'command'),
    phase: row.phase as Phase,
    state: row.state as CommandState,
    outcome: opt(row.outcome) as Outcome | undefined,
    attempt: row.attempt,
    createdUtc: opt(row.created_utc),
    seenAt: row.seen_at,
    startedAt: opt(row.started_at),
    finishedAt: opt(row.finished_at),
    pickupMs: opt(row.pickup_ms),
    progress: opt(row.progress),
    ...checkpointOf(row.checkpoint_json),
    result: withMessage(p<ReportedResult>(row.result_json, 'result')),
    error: withMessage(p<SerializedError>(row.error_json, 'error')),
    notes: row.notes === null ? undefined : readStoredMessage(row.notes),
    timeline: p<CommandRecord['timeline']>(row.timeline_json, 'timeline') ?? [],
  };
  for (const key of Object.keys(record) as (keyof CommandRecord)[]) {
    if (record[key] === undefined) delete record[key];
  }
  return record;
}
