import type { CommandData } from '../connector/command-model.js';
import { AgentError } from '../errors.js';
import type { Message } from '../messages/message.js';
import type { Job } from './types.js';

/** The kinds of command a driver runs (`other` reaches no driver). */
export type JobKind = Exclude<CommandData['kind'], 'other'>;

/** The data of a command of kind `K`: a fiscal command's `FiscalJobData`, and so on. */
export type JobDataOf<K extends JobKind> =
  Extract<CommandData, { kind: K }> extends infer D ? (D extends Record<K, infer V> ? V : never) : never;

const DEVICE_OF: Record<JobKind, string> = {
  fiscal: 'a fiscal printer',
  keys: 'a key encoder',
  print: 'a printer',
};

/**
 * The job's data when it is a command of `kind`; otherwise COMMAND_INVALID (nothing was done on
 * the device), with the family's `notes` for the receptionist when it has its own sentence (the
 * error code's default otherwise). Every driver reads its job through this, so a command routed
 * to the wrong device is refused the same way by every family.
 */
export function jobDataOf<K extends JobKind>(job: Job, kind: K, notes?: Message): JobDataOf<K> {
  const data = job.data;
  if (data.kind !== kind) {
    throw new AgentError('COMMAND_INVALID', `A ${data.kind} command cannot run on ${DEVICE_OF[kind]}`, {
      ...(notes ? { notes } : {}),
    });
  }
  return (data as unknown as Record<K, JobDataOf<K>>)[kind];
}
