import type { Clock } from '../../src/clock.js';
import type { ExecuteContext, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type {
  AnswerClass,
  OutgoingDocument,
  OutgoingWords,
  PrintedOutcome,
} from '../fiscal-it/rt/outgoing.js';
import type { PrinterRead } from '../fiscal-it/rt/printer-read.js';
import { notReachedError, type SendContext, sendContextOf, sendDocument } from '../fiscal-it/rt/send.js';
import { documentWords, type FiscalDocumentName, failureMeaning } from './answers.js';
import { type Baseline, CHECKPOINT_VERSION, type SendingCheckpoint } from './checkpoint.js';
import type { EpsonFpmateOptions } from './config.js';
import type { PostResult } from './http.js';
import { reasonWords } from './http.js';
import type { LastDocument } from './last-document.js';
import type { PrinterLink } from './link.js';
import { epsonAnswers } from './messages.js';
import { epsonPrinterWords } from './messages-printer.js';
import { epsonResults, serialWords } from './messages-results.js';
import type { Plan, PrinterMemory } from './plan.js';
import { decodePrinterStatus, docLabel } from './protocol.js';
import { documentResult, type PrintedReceipt, printedFromAnswer, receiptResult } from './results.js';
import type { StatusBoard } from './status.js';
import { epsonWitness } from './witnesses.js';
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

/** A printed document's numbers, from the answer or from the last document (`directIO 1387`). */
type Printed = Pick<PrintedReceipt, 'z' | 'doc' | 'dateTime' | 'serial' | 'totalCents'>;

/** The document a plan prints, as the answers' sentences name it. */
export function documentOf(plan: Plan): FiscalDocumentName {
  return plan.label === 'refund' ? 'refund receipt' : plan.label === 'void' ? 'void receipt' : 'receipt';
}

/**
 * What the answer to a document's POST means. `uncertain` covers every answer that does not
 * prove the document's fate: a lost or unreadable answer, FP_NO_ANSWER, the paper-low warning,
 * and LAN_TIME_OUT (`busy`: fpmate timed out talking to the fiscal unit *while processing the
 * document's lines* — fiskaltrust `scu-it` `Models/ErrorInfoFactory.cs` — so part of it, or all
 * of it, may have been printed). The printer's last document decides each of them.
 */
function classify(result: PostResult, plan: Plan, serial: string | undefined): AnswerClass<Printed> {
  const notPrinted = documentWords(documentOf(plan)).notPrinted;
  if (result.kind === 'not-sent') {
    // A refused connection carried no bytes: nothing was printed, so the core may retry.
    const notes = epsonAnswers.unreachable({ reason: reasonWords(result.reason), notPrinted });
    const error = notReachedError(result.reason, notes);
    return { kind: 'not-taken', error };
  }
  if (result.kind === 'lost') return { kind: 'uncertain', reason: `no answer (${result.reason})` };
  if ([401, 403, 404].includes(result.httpStatus)) {
    const error = new AgentError('DEVICE_ERROR', `fpmate.cgi answered HTTP ${result.httpStatus}`, {
      notes: epsonAnswers.httpRefused({ status: result.httpStatus, notPrinted }),
      retryable: false,
    });
    return { kind: 'refused', error };
  }
  const response = result.httpStatus < 300 ? parseFpmateResponse(result.body) : undefined;
  if (!response) return { kind: 'uncertain', reason: `unreadable answer (HTTP ${result.httpStatus})` };
  if (response.success) {
    const base = { serial, kind: plan.label, recovered: false, warnings: [] };
    const document = printedFromAnswer(response, base);
    return {
      kind: 'printed',
      warnings: warningsOf(response),
      answer: response,
      ...(document ? { document } : {}),
    };
  }
  const meaning = failureMeaning(response, documentOf(plan));
  if (meaning.kind === 'busy')
    return { kind: 'uncertain', reason: 'printer answered LAN_TIME_OUT', busy: true };
  if (meaning.kind === 'ambiguous')
    return { kind: 'uncertain', reason: `printer answered ${response.code}`, standing: meaning.error };
  return { kind: 'refused', error: meaning.error };
}

function warningsOf(response: FpmateResponse): Message[] {
  const status = decodePrinterStatus(response.addInfo.printerStatus ?? '');
  const out: Message[] = [];
  if (status.printer === 'paper-low') out.push(epsonResults.paperRunningLow());
  if (status.journal === 'near-full') out.push(epsonResults.journalNearlyFull());
  return out;
}

/** The Epson family's sentences for one document's outcomes (catalogue keys Notes keep). */
export function epsonOutgoingWords(plan: Pick<Plan, 'label'>, settleMinutes: number): OutgoingWords {
  const name = documentOf(plan as Plan);
  const document = documentWords(name).document;
  const unknown = (reason: string, details: Record<string, unknown>, notes: Message) =>
    new AgentError('STATE_UNKNOWN', `Outcome of the ${name} unknown: ${reason}`, { notes, details });
  return {
    noWitness: () => epsonResults.lastDocumentUnreadable(),
    disagree: () => epsonResults.cannotTell(),
    unknown: (reason) => unknown(reason, { reason }, epsonAnswers.unconfirmed({ document })),
    away: (reason, aborted) =>
      unknown(
        reason,
        { reason, printerAway: true },
        aborted
          ? epsonPrinterWords.stoppedWaiting({ document })
          : epsonPrinterWords.gaveUp({ document, minutes: settleMinutes }),
      ),
    notPrinted: (reason, busy) =>
      busy
        ? new AgentError('DEVICE_BUSY', 'Printer busy (LAN_TIME_OUT); not printed', {
            notes: epsonAnswers.busyNotPrinted({ document }),
            details: { nothingSent: true },
          })
        : new AgentError('DEVICE_UNAVAILABLE', `Printer did not answer; not printed (${reason})`, {
            notes: epsonAnswers.silentNotPrinted({ document }),
          }),
    waiting: (sentAt, until) =>
      epsonPrinterWords.waitingToSettle({
        document,
        at: { at: sentAt, show: 'time' },
        until: { at: until, show: 'time' },
      }),
  };
}

/**
 * The printer's last document as the kit reads witnesses: `directIO 1387`, learning the serial
 * and the baseline from it (`PrinterMemory.observe`: a read that is not a fiscal document leaves
 * the counters unknown, so the next receipt reads them first).
 */
export function lastDocumentRead(d: Pick<SendDeps, 'link' | 'memory' | 'board'>) {
  return async (signal?: AbortSignal): Promise<PrinterRead<LastDocument>> => {
    const read = await d.link.readCounters(signal);
    if (read.kind === 'busy') return { kind: 'busy', code: 'LAN_TIME_OUT' };
    const last = read.kind === 'read' ? read.document : undefined;
    d.memory.observe(last);
    if (last) d.board.noteSerial(last.serial);
    if (read.kind === 'read') return { kind: 'read', evidence: read.document };
    if (read.kind === 'silent') return { kind: 'away', reason: read.code };
    if (read.kind === 'unreachable') return { kind: 'away', reason: read.reason };
    return { kind: 'unreadable', what: '1387' };
  };
}

/**
 * Status 30, "CHECKSUM ERRATO" (fiskaltrust `Models/ErrorInfoFactory.cs` L57): on a receipt whose
 * only code is its lottery code (the core never prints one beside a codice fiscale or partita
 * IVA: lottery.ts), the code's check character. The printer processes a receipt's elements in
 * order and stops at the refused one (`printRecLotteryID` comes before the payments and
 * `endFiscalReceipt`), so the receipt was not closed; the kit resets it and asks the witnesses
 * before the receipt goes again without the code (`fallback`).
 */
const LOTTERY_CHECK = '30';

/** One Epson receipt for the kit's `sendDocument`: protocol only. */
export function epsonDocument(d: SendDeps, plan: Plan): OutgoingDocument<Baseline, LastDocument, Printed> {
  const read = lastDocumentRead(d);
  return {
    // The baseline of the next receipt: the last fiscal document the agent confirmed, so that in
    // steady state a receipt costs one printer request; only when it is unknown (first receipt,
    // after an unknown outcome) is the printer's last document read first.
    async before(signal) {
      const known = d.memory.baseline();
      if (known) return { kind: 'ready', baseline: known };
      const last = await d.link.readCountersPatiently(d.clock, signal);
      d.memory.observe(last);
      if (last) d.board.noteSerial(last.serial);
      else d.log.warn('last document unreadable before sending: a lost answer will be reported as unknown');
      return { kind: 'ready', baseline: last?.fiscal ? { z: last.z, doc: last.doc, fresh: true } : null };
    },
    checkpoint(baseline, sentAt, resent): SendingCheckpoint {
      const checkpoint: SendingCheckpoint = {
        v: CHECKPOINT_VERSION,
        phase: 'sending',
        kind: plan.kind,
        label: plan.label,
        baseline,
        resent,
        sentAt,
      };
      if (plan.expectedCents !== undefined) checkpoint.expectedCents = plan.expectedCents;
      if (plan.reference) checkpoint.reference = plan.reference;
      return checkpoint;
    },
    post: (holdUntil) => d.link.sendDocument(plan.xml, holdUntil),
    classify: (result) => classify(result, plan, d.memory.serial()),
    read,
    witnesses: (baseline, last) => epsonWitness(baseline, last, plan.expectedCents),
    rebase: (_baseline, last) => ({ z: last.z, doc: last.doc, fresh: true }),
    resetOwn: async () => {
      await d.link.reset();
    },
    result: (printed) => printedResult(d, plan, printed),
    words: epsonOutgoingWords(plan, d.options.settleUnansweredForMinutes),
    fallback: (refusal) => {
      if (plan.withoutLottery === undefined || refusal.details.printerStatusCode !== LOTTERY_CHECK) return;
      d.log.warn('the printer refused the lottery code (status 30): the receipt goes without it');
      const { withoutLottery, ...rest } = plan;
      return epsonDocument(d, { ...rest, xml: withoutLottery, lotteryRefused: true });
    },
  };
}

/** The kit's send context for an Epson document: resent once after a lost answer, `busyRetries` after LAN_TIME_OUT. */
export function sendContext(d: SendDeps): SendContext {
  const o = d.options;
  return sendContextOf(d, CHECKPOINT_VERSION, {
    afterLost: o.resendWhenNotPrinted ? 1 : 0,
    afterBusy: o.busyRetries,
  });
}

/**
 * Sends one planned receipt and settles its fate exactly once (the kit's `sendDocument`, README
 * "Exactly once"): the printer's last document decides every unproven answer, and a receipt the
 * counters prove unprinted is sent again once after a lost answer (`resendWhenNotPrinted`) and
 * `busyRetries` times after LAN_TIME_OUT.
 */
export function sendPlanned(d: SendDeps, plan: Plan, ectx: ExecuteContext): Promise<JobResult> {
  return sendDocument(sendContext(d), epsonDocument(d, plan), ectx);
}

function printedResult(d: SendDeps, plan: Plan, outcome: PrintedOutcome<Printed>): JobResult {
  const paperEnd = outcome.standing?.details.printerCode === 'EPTR_REC_EMPTY';
  if (paperEnd) d.board.paperRanOut();
  const doc = outcome.document;
  if (doc) {
    const printed: PrintedReceipt = {
      ...doc,
      serial: doc.serial || d.memory.serial(),
      kind: plan.label,
      reference: plan.reference,
      recovered: outcome.recovered,
      warnings: [...outcome.warnings, ...(paperEnd ? [epsonPrinterWords.paperRanOut()] : [])],
    };
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
    const result = receiptResult(printed, d.options.currency);
    return plan.lotteryRefused ? { ...result, details: { ...result.details, lotteryRefused: true } } : result;
  }
  if (outcome.answer) {
    // Printed, but neither the answer nor the counters say under which number.
    d.memory.forget();
    return documentResult(plan.root, d.memory.serial(), outcome.answer as FpmateResponse);
  }
  return {
    notes: epsonResults.documentPrinted({ serial: serialWords(d.memory.serial()) }),
    details: { root: plan.root },
  };
}
