import type { JobResult } from '../../src/drivers-api/types.js';
import { isMessage } from '../../src/messages/message.js';

/**
 * What the driver stores (ExecuteContext.checkpoint) around a Print-Job, so a crash or a lost
 * answer can be reconciled without printing twice:
 * - `sending`: stored just before the Print-Job leaves. The job carries `job-name` = the command
 *   id and `requesting-user-name` = `user`; `upTime` is the printer's `printer-up-time` read just
 *   before, which tells later whether the printer's job history still reaches back to this send.
 * - `accepted`: the printer answered with `jobId`.
 * - `done`: the job ended; `result` is what was reported.
 */
export interface PrintCheckpoint {
  v: 1;
  phase: 'sending' | 'accepted' | 'done';
  printer: string;
  uri: string;
  jobName: string;
  user: string;
  copies: number;
  upTime?: number;
  jobId?: number;
  result?: JobResult;
}

/** The checkpoint, or undefined when it is not one this driver wrote (corrupt, foreign, future). */
export function readCheckpoint(value: unknown): PrintCheckpoint | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  if (c.v !== 1) return undefined;
  if (c.phase !== 'sending' && c.phase !== 'accepted' && c.phase !== 'done') return undefined;
  for (const key of ['printer', 'uri', 'jobName', 'user'] as const) {
    if (typeof c[key] !== 'string' || c[key] === '') return undefined;
  }
  if (typeof c.copies !== 'number' || !Number.isInteger(c.copies) || c.copies < 1) return undefined;
  if (c.upTime !== undefined && typeof c.upTime !== 'number') return undefined;
  if (c.jobId !== undefined && (typeof c.jobId !== 'number' || !Number.isInteger(c.jobId))) return undefined;
  if (c.phase === 'accepted' && c.jobId === undefined) return undefined;
  if (c.phase === 'done') {
    const r = c.result as Record<string, unknown> | undefined;
    // Notes: a catalogue message, or the sentence an older build stored.
    if (typeof r !== 'object' || r === null || (typeof r.notes !== 'string' && !isMessage(r.notes)))
      return undefined;
  }
  return value as PrintCheckpoint;
}
