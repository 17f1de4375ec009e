import type { Clock } from '../../src/clock.js';
import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import { documentWords, type FiscalDocumentName, failureMeaning } from './answers.js';
import type { EpsonFpmateOptions } from './config.js';
import type { PostResult } from './http.js';
import { reasonWords } from './http.js';
import type { LastDocument } from './last-document.js';
import type { CountersRead, PrinterLink } from './link.js';
import { epsonAnswers } from './messages.js';
import { epsonPrinterWords } from './messages-printer.js';
import { epsonResults, serialWords } from './messages-results.js';
import type { Plan, PrinterMemory } from './plan.js';
import { decodePrinterStatus, docLabel } from './protocol.js';
import {
  type Baseline,
  CHECKPOINT_VERSION,
  type Decision,
  decide,
  doneCheckpoint,
  type SendingCheckpoint,
} from './recovery.js';
import { documentResult, type PrintedReceipt, printedFromAnswer, receiptResult } from './results.js';
import { awaitCounters, isAway } from './settle.js';
import type { StatusBoard } from './status.js';
import { type FpmateResponse, parseFpmateResponse } from './xml-response.js';

export interface SendDeps {
  link: PrinterLink;
  memory: PrinterMemory;
  /** Where printed documents are remembered (voids by number) and the fiscal day's opening. */
  state?: FiscalState;
  board: StatusBoard;
  options: EpsonFpmateOptions;
  clock: Clock;
  log: Logger;
}

const MINUTE = 60_000;

/**
 * What one POST of a document amounted to. `uncertain` covers every answer that does not prove
 * the document's fate: a lost or unreadable answer, FP_NO_ANSWER, the paper-low warning, and
 * LAN_TIME_OUT (`busy`: fpmate timed out talking to the fiscal unit *while processing the
 * document's lines* — fiskaltrust `scu-it` `Models/ErrorInfoFactory.cs` — so part of it, or all
 * of it, may have been printed). The printer's counters decide each of them.
 */
type Outcome =
  | { kind: 'success'; response: FpmateResponse }
  | { kind: 'failed'; error: AgentError }
  | { kind: 'not-sent'; error: AgentError }
  | { kind: 'uncertain'; reason: string; busy: boolean; error?: AgentError };

/** The document a plan prints, as the answers' sentences name it. */
export function documentOf(plan: Plan): FiscalDocumentName {
  return plan.label === 'refund' ? 'refund receipt' : plan.label === 'void' ? 'void receipt' : 'receipt';
}

function interpret(result: PostResult, plan: Plan): Outcome {
  if (result.kind === 'not-sent') {
    return {
      kind: 'not-sent',
      error: new AgentError('DEVICE_UNAVAILABLE', `Printer not reachable (${result.reason})`, {
        notes: epsonAnswers.unreachable({
          reason: reasonWords(result.reason),
          notPrinted: documentWords(documentOf(plan)).notPrinted,
        }),
        // A refused connection carried no bytes: nothing was printed, so the core may retry.
        details: { reason: result.reason, nothingSent: true },
      }),
    };
  }
  if (result.kind === 'lost')
    return { kind: 'uncertain', reason: `no answer (${result.reason})`, busy: false };
  if ([401, 403, 404].includes(result.httpStatus)) {
    return {
      kind: 'failed',
      error: new AgentError('DEVICE_ERROR', `fpmate.cgi answered HTTP ${result.httpStatus}`, {
        notes: epsonAnswers.httpRefused({
          status: result.httpStatus,
          notPrinted: documentWords(documentOf(plan)).notPrinted,
        }),
        retryable: false,
      }),
    };
  }
  const response = result.httpStatus < 300 ? parseFpmateResponse(result.body) : undefined;
  if (!response) {
    return { kind: 'uncertain', reason: `unreadable answer (HTTP ${result.httpStatus})`, busy: false };
  }
  if (response.success) return { kind: 'success', response };
  const meaning = failureMeaning(response, documentOf(plan));
  if (meaning.kind === 'busy')
    return { kind: 'uncertain', reason: 'printer answered LAN_TIME_OUT', busy: true };
  if (meaning.kind === 'ambiguous')
    return {
      kind: 'uncertain',
      reason: `printer answered ${response.code}`,
      busy: false,
      error: meaning.error,
    };
  return { kind: 'failed', error: meaning.error };
}

function warningsOf(response: FpmateResponse): Message[] {
  const status = decodePrinterStatus(response.addInfo.printerStatus ?? '');
  const out: Message[] = [];
  if (status.printer === 'paper-low') out.push(epsonResults.paperRunningLow());
  if (status.journal === 'near-full') out.push(epsonResults.journalNearlyFull());
  return out;
}

/**
 * The baseline of the next receipt: the last fiscal document the agent confirmed (from the
 * previous receipt's answer, or a read), so that in steady state a receipt costs one printer
 * request. Only when it is unknown (first receipt, after an unknown outcome) is the printer's
 * last document read first (`directIO 1387`).
 */
async function baselineFor(d: SendDeps, signal: AbortSignal): Promise<Baseline | null> {
  const known = d.memory.baseline();
  if (known) return known;
  const last = await d.link.readCountersPatiently(d.clock, signal);
  d.memory.observe(last);
  if (last) d.board.noteSerial(last.serial);
  else d.log.warn('last document unreadable before sending: a lost answer will be reported as unknown');
  return last?.fiscal ? { z: last.z, doc: last.doc, fresh: true } : null;
}

/**
 * Sends one planned receipt and settles its fate exactly once (see README "Exactly once"):
 * checkpoints the baseline before the POST; when the answer does not prove the outcome (lost,
 * unreadable, FP_NO_ANSWER, LAN_TIME_OUT, paper low) reads the printer's counters — again while it
 * answers LAN_TIME_OUT — and reports the receipt printed (never resending), sends it again when
 * they prove it was not printed (once after a lost answer, `busyRetries` times after
 * LAN_TIME_OUT), or rejects with STATE_UNKNOWN when they cannot tell. Definitive refusals reset
 * the printer and reject with the mapped code.
 */
export async function sendPlanned(d: SendDeps, plan: Plan, ectx: ExecuteContext): Promise<JobResult> {
  let baseline = await baselineFor(d, ectx.signal);
  if (ectx.signal.aborted) throw new AgentError('ABORTED', 'Stopped before sending the document');
  let resent = false;
  let busyResends = 0;
  let lostResends = 0;
  for (;;) {
    const checkpoint: SendingCheckpoint = {
      v: CHECKPOINT_VERSION,
      phase: 'sending',
      kind: plan.kind,
      label: plan.label,
      baseline,
      resent,
      sentAt: d.clock.now(),
    };
    if (plan.expectedCents !== undefined) checkpoint.expectedCents = plan.expectedCents;
    if (plan.reference) checkpoint.reference = plan.reference;
    // The connection opens while the checkpoint reaches the disk; the document is written only
    // after it (a kill or power cut before then leaves nothing at the printer). A checkpoint that
    // cannot be saved stops the job here, with nothing sent.
    const saved = ectx.checkpoint(checkpoint);
    saved.catch(() => undefined);
    ectx.progress(0.5);
    const answer = await d.link.sendDocument(plan.xml, saved);
    await saved;
    const outcome = interpret(answer, plan);
    if (outcome.kind === 'success')
      return finish(d, plan, ectx, await printedFrom(d, plan, outcome.response, baseline), outcome.response);
    if (outcome.kind === 'not-sent') throw outcome.error;
    if (outcome.kind === 'failed') {
      await d.link.reset();
      throw outcome.error;
    }
    // The answer does not prove the outcome: the printer's counters decide, never a blind resend.
    // A printer that went away gets `settleUnansweredForMinutes` to come back (settle.ts).
    const read = await countersAfter(d, plan, baseline, checkpoint.sentAt ?? d.clock.now(), ectx.signal);
    const last = read.kind === 'read' ? read.document : undefined;
    if (last) d.board.touched();
    d.memory.observe(last);
    const decision: Decision = decide(baseline, last, plan.expectedCents);
    d.log.info('unproven answer checked against the printer', {
      reason: outcome.reason,
      outcome: decision.outcome,
    });
    if (decision.outcome === 'printed') {
      const paperEnd = outcome.error?.details.printerCode === 'EPTR_REC_EMPTY';
      if (paperEnd) d.board.paperRanOut();
      const printed = fromMemory(
        d,
        plan,
        decision.document,
        paperEnd ? [epsonPrinterWords.paperRanOut()] : [],
      );
      return finish(d, plan, ectx, printed, undefined);
    }
    if (decision.outcome === 'unknown') {
      const reason = `${outcome.reason}; ${english(decision.reason)}`;
      if (isAway(read)) throw awayError(d, plan, reason, ectx.signal.aborted);
      throw unknownError(plan, reason);
    }
    await d.link.reset();
    // A definite complaint (paper low) stands; a silent fiscal unit counts as a lost answer.
    if (outcome.error && outcome.error.code !== 'STATE_UNKNOWN') throw outcome.error;
    if (outcome.busy) {
      if (busyResends >= d.options.busyRetries) {
        throw new AgentError('DEVICE_BUSY', 'Printer busy (LAN_TIME_OUT); not printed', {
          notes: epsonAnswers.busyNotPrinted({ document: documentWords(documentOf(plan)).document }),
          details: { nothingSent: true },
        });
      }
      busyResends++;
      await d.clock.sleep(d.options.busyRetryDelayMs, ectx.signal);
    } else {
      if (lostResends >= (d.options.resendWhenNotPrinted ? 1 : 0)) {
        throw new AgentError(
          'DEVICE_UNAVAILABLE',
          `Printer did not answer; not printed (${outcome.reason})`,
          {
            notes: epsonAnswers.silentNotPrinted({ document: documentWords(documentOf(plan)).document }),
          },
        );
      }
      lostResends++;
    }
    resent = true;
    // The counters were just read and are the baseline's: a fresh one for the next attempt.
    baseline = { z: decision.at.z, doc: decision.at.doc, fresh: true };
    d.log.warn('document not printed, as the counters prove: sending it once more', {
      reason: outcome.reason,
    });
  }
}

/**
 * The printer's counters after an unproven answer. With a baseline to compare them to, a printer
 * that went away is waited for (settle.ts) until `settleUnansweredForMinutes` after the document
 * left; without one the counters cannot prove anything, so they are read once.
 */
async function countersAfter(
  d: SendDeps,
  plan: Plan,
  baseline: Baseline | null,
  sentAt: number,
  signal: AbortSignal,
): Promise<CountersRead> {
  const windowMs = d.options.settleUnansweredForMinutes * MINUTE;
  if (!baseline || windowMs === 0) return d.link.settleCounters(d.clock);
  const until = sentAt + windowMs;
  const warning = epsonPrinterWords.waitingToSettle({
    document: documentWords(documentOf(plan)).document,
    at: { at: sentAt, show: 'time' },
    until: { at: until, show: 'time' },
  });
  return awaitCounters(d, { until, warning, signal });
}

/** The printer went away and never came back in time (or the agent stopped waiting). */
function awayError(d: SendDeps, plan: Plan, reason: string, aborted: boolean): AgentError {
  const document = documentWords(documentOf(plan)).document;
  const notes = aborted
    ? epsonPrinterWords.stoppedWaiting({ document })
    : epsonPrinterWords.gaveUp({ document, minutes: d.options.settleUnansweredForMinutes });
  return new AgentError('STATE_UNKNOWN', `Outcome of the ${documentOf(plan)} unknown: ${reason}`, {
    notes,
    details: { reason, printerAway: true },
  });
}

function unknownError(plan: Plan, reason: string): AgentError {
  return new AgentError('STATE_UNKNOWN', `Outcome of the ${documentOf(plan)} unknown: ${reason}`, {
    notes: epsonAnswers.unconfirmed({ document: documentWords(documentOf(plan)).document }),
    details: { reason },
  });
}

/** A receipt as the printer's memory shows it (its last emitted document). */
function fromMemory(
  d: SendDeps,
  plan: Plan,
  document: LastDocument,
  warnings: Message[] = [],
): PrintedReceipt {
  return {
    z: document.z,
    doc: document.doc,
    dateTime: document.dateTime,
    serial: document.serial || d.memory.serial(),
    totalCents: document.totalCents,
    kind: plan.label,
    reference: plan.reference,
    recovered: true,
    warnings,
  };
}

async function printedFrom(
  d: SendDeps,
  plan: Plan,
  response: FpmateResponse,
  baseline: Baseline | null,
): Promise<PrintedReceipt | undefined> {
  const base = {
    serial: d.memory.serial(),
    kind: plan.label,
    reference: plan.reference,
    recovered: false,
    warnings: warningsOf(response),
  };
  const printed = printedFromAnswer(response, base);
  if (printed) return printed;
  // A success without numbers: the printer's memory gives them when it can.
  const decision = decide(baseline, await d.link.readLastDocument(), plan.expectedCents);
  if (decision.outcome !== 'printed') return undefined;
  return {
    ...fromMemory(d, plan, decision.document),
    recovered: false,
    warnings: base.warnings,
  };
}

function finish(
  d: SendDeps,
  plan: Plan,
  ectx: ExecuteContext,
  printed: PrintedReceipt | undefined,
  response: FpmateResponse | undefined,
): JobResult {
  let result: JobResult;
  if (printed) {
    d.memory.confirm(printed.z, printed.doc);
    d.board.noteReceipt(docLabel(printed));
    d.state?.remember({
      z: printed.z,
      doc: printed.doc,
      kind: printed.kind,
      ...(printed.dateTime ? { dateTime: printed.dateTime } : {}),
      ...(printed.totalCents !== undefined ? { totalCents: printed.totalCents } : {}),
    });
    // The day's first document opens the fiscal day: from then on the closure is due.
    d.state?.dayOpen(d.clock.now(), printed.doc === 1);
    result = receiptResult(printed, d.options.currency);
  } else if (response) {
    // Printed, but neither the answer nor the counters say under which number.
    d.memory.forget();
    result = documentResult(plan.root, d.memory.serial(), response);
  } else {
    result = {
      notes: epsonResults.documentPrinted({ serial: serialWords(d.memory.serial()) }),
      details: { root: plan.root },
    };
  }
  d.board.touched();
  // The receipt is printed whatever the journal says: report the real outcome. Nothing follows
  // on the printer, so the checkpoint is final: the core puts it on disk with the result.
  const unsaved = (e: unknown) =>
    d.log.error('could not checkpoint a printed receipt', {
      error: e instanceof Error ? e.message : String(e),
    });
  try {
    ectx.checkpoint(doneCheckpoint(result), { final: true }).catch(unsaved);
  } catch (e) {
    unsaved(e);
  }
  ectx.progress(1);
  return result;
}
