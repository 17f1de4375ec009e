import type { Clock } from '../../src/clock.js';
import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type { CustomRtOptions } from './config.js';
import { refusal } from './errors.js';
import type { CountersRead, CustomLink } from './link.js';
import { customRefusals, customResults } from './messages.js';
import type { CustomPlan } from './plan.js';
import {
  type Baseline,
  baselineOf,
  CHECKPOINT_VERSION,
  decide,
  doneCheckpoint,
  type SendingCheckpoint,
} from './recovery.js';
import { docLabel, numbersOf, type Printed, printedResult } from './results.js';
import { awaitCounters } from './settle.js';
import type { StatusBoard } from './status.js';
import { parseResponse } from './xml.js';

export interface SendDeps {
  link: CustomLink;
  options: CustomRtOptions;
  clock: Clock;
  log: Logger;
  board: StatusBoard;
  state: FiscalState;
  serial(): string | undefined;
}

const MINUTE = 60_000;

function unreachable(reason: string): AgentError {
  return new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${reason})`, {
    notes: customResults.notPrintedUnreachable({ reason }),
    details: { reason, nothingSent: true },
  });
}

/** The baseline read just before sending; a printer that cannot be read at all is refused first. */
async function baselineFor(d: SendDeps, signal: AbortSignal): Promise<Baseline | null> {
  const read = await d.link.settleCounters(d.clock, signal);
  if (signal.aborted) throw new AgentError('ABORTED', 'Stopped before sending the document');
  if (read.kind === 'unreachable') throw unreachable(read.reason);
  if (read.kind === 'busy') throw refusal(read.status).error;
  if (read.kind === 'unreadable') {
    d.log.warn('counters unreadable before sending: only lastIdCmd will settle a lost answer');
    return null;
  }
  d.board.touched();
  // A document another till left open would swallow ours (XML p.31): cancel it first.
  if (read.counters.documentOpen) await d.link.reset();
  return baselineOf(read.counters);
}

/**
 * Sends one planned document and settles its fate exactly once: the checkpoint (with the IdCmds
 * and the baseline) is on disk before the POST; a success is read from the answer; a refusal
 * resets the printer and rejects; anything that does not prove the outcome — a lost or unreadable
 * answer, paper out or cover open mid-document — asks the printer (recovery.ts `decide`), waiting
 * `settleUnansweredForMinutes` for one that went away. Proven unprinted, the job fails retryable
 * with `nothingSent` (the engine sends it again, with the next attempt's IdCmds); never a blind resend.
 */
export async function sendPlanned(d: SendDeps, plan: CustomPlan, ectx: ExecuteContext): Promise<JobResult> {
  const baseline = await baselineFor(d, ectx.signal);
  if (ectx.signal.aborted) throw new AgentError('ABORTED', 'Stopped before sending the document');
  const checkpoint: SendingCheckpoint = {
    v: CHECKPOINT_VERSION,
    phase: 'sending',
    label: plan.label,
    ids: plan.ids,
    baseline,
    sentAt: d.clock.now(),
  };
  if (plan.expectedCents !== undefined) checkpoint.expectedCents = plan.expectedCents;
  if (plan.reference) checkpoint.reference = plan.reference;
  // The connection opens while the checkpoint reaches the disk; the document is written only after
  // it. A checkpoint that cannot be saved stops the job here, with nothing sent.
  const saved = ectx.checkpoint(checkpoint);
  saved.catch(() => undefined);
  ectx.progress(0.5);
  const result = await d.link.sendDocument(plan.xml, undefined, saved);
  await saved;
  let why: string;
  let standing: AgentError | undefined;
  if (result.kind === 'not-sent') throw unreachable(result.reason);
  if (result.kind === 'lost') why = `no answer (${result.reason})`;
  else if (result.httpStatus === 401 || result.httpStatus === 403) {
    throw new AgentError('DEVICE_ERROR', `printer.htm answered HTTP ${result.httpStatus}`, {
      notes: customRefusals.credentialsRefused({ status: result.httpStatus }),
      retryable: false,
    });
  } else {
    const response = result.httpStatus < 300 ? parseResponse(result.body) : undefined;
    if (response?.success) {
      const numbers = numbersOf(response.addInfo);
      return finish(d, ectx, plan, { z: numbers?.z, doc: numbers?.doc, recovered: false });
    }
    if (!response) why = `unreadable answer (HTTP ${result.httpStatus})`;
    else {
      const meaning = refusal(response.status);
      if (meaning.kind !== 'ambiguous') {
        await d.link.reset();
        d.board.noteStatus(response);
        throw meaning.error;
      }
      why = `printer answered ${response.status}`;
      standing = meaning.error;
    }
  }
  const read = await countersAfter(d, checkpoint.sentAt, ectx.signal);
  const counters = read.kind === 'read' ? read.counters : undefined;
  const decision = decide(baseline, plan.ids, counters, plan.expectedCents);
  d.log.info('unproven answer checked against the printer', { reason: why, outcome: decision.outcome });
  if (decision.outcome === 'printed') {
    const doc = decision.document;
    return finish(d, ectx, plan, {
      z: doc ? decision.z : undefined,
      doc: doc?.doc,
      dateTime: doc?.dateTime,
      totalCents: doc?.totalCents,
      recovered: true,
    });
  }
  if (decision.outcome === 'unknown') {
    throw new AgentError('STATE_UNKNOWN', `Outcome of the ${plan.label} unknown: ${why}`, {
      notes: customResults.unconfirmed(),
      details: { reason: why, printerAway: read.kind === 'unreachable' },
    });
  }
  if (decision.documentOpen) await d.link.reset();
  if (standing) throw standing;
  throw new AgentError('DEVICE_UNAVAILABLE', `Printer did not answer; not printed (${why})`, {
    notes: customResults.notPrintedSilent(),
    details: { reason: why, nothingSent: true },
  });
}

function countersAfter(d: SendDeps, sentAt: number, signal: AbortSignal): Promise<CountersRead> {
  const minutes = d.options.settleUnansweredForMinutes;
  if (minutes === 0) return d.link.settleCounters(d.clock, signal);
  return awaitCounters(d, sentAt + minutes * MINUTE, signal);
}

function finish(
  d: SendDeps,
  ectx: ExecuteContext,
  plan: CustomPlan,
  numbers: Omit<Printed, 'kind' | 'serial' | 'reference'>,
): JobResult {
  const printed: Printed = { ...numbers, kind: plan.label, serial: d.serial(), reference: plan.reference };
  if (printed.z !== undefined && printed.doc !== undefined) {
    d.board.noteReceipt(docLabel(printed.z, printed.doc));
    d.state.remember({ z: printed.z, doc: printed.doc, kind: plan.label });
    d.state.dayOpen(d.clock.now(), printed.doc === 1);
  } else d.state.dayOpen(d.clock.now(), false);
  const result = printedResult(printed);
  d.board.touched();
  // Printed whatever the journal says: the core stores the result; the checkpoint is final.
  ectx.checkpoint(doneCheckpoint(result), { final: true }).catch((e: unknown) =>
    d.log.error('could not checkpoint a printed document', {
      error: e instanceof Error ? e.message : String(e),
    }),
  );
  ectx.progress(1);
  return result;
}
