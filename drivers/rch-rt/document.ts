import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type { PostResult } from '../fiscal-it/rt/http.js';
import type {
  AnswerClass,
  BeforeSend,
  OutgoingDocument,
  OutgoingWords,
  PrintedOutcome,
} from '../fiscal-it/rt/outgoing.js';
import { rtOutgoingWords } from '../fiscal-it/rt/outgoing-words.js';
import { readPatiently } from '../fiscal-it/rt/printer-read.js';
import { notReachedError } from '../fiscal-it/rt/send.js';
import { CHECKPOINT_VERSION, type SendingCheckpoint } from './checkpoint.js';
import { refundOpen, voidOf } from './commands.js';
import type { RchRtOptions } from './config.js';
import { busyError, refusalOf } from './errors.js';
import type { Evidence, PrinterState, RchLink } from './link.js';
import { rchRefusals, rchResults } from './messages.js';
import type { RchPlan } from './plan.js';
import { parseAnswer, type RchAnswer } from './service.js';
import type { StatusBoard } from './status.js';
import {
  type Baseline,
  baselineOf,
  type PrintedDocument,
  rchWitnesses,
  type SentDocument,
} from './witnesses.js';

/** What an RCH document needs of the driver. */
export interface DocumentDeps {
  link: RchLink;
  options: RchRtOptions;
  clock: Clock;
  log: Logger;
  board: StatusBoard;
  state: FiscalState;
  serial(): string | undefined;
}

/** A document to send (a plan, with its commands) or one sent before (its checkpoint, without them). */
export type Outgoing = RchPlan | SendingCheckpoint;

const pad4 = (n: number) => String(n).padStart(4, '0');

/** `zzzz-nnnn`, the number an Italian RT prints on a document. */
export const docLabel = (z: number, doc: number) => `${pad4(z)}-${pad4(doc)}`;

/** The sale mode's key (optyker-web `Assert-IdleRegister` accepts `REG` and `REG (OP n)`). */
export const isRegister = (state: PrinterState) => /^REG\b/.test(state.mode);

function sentOf(o: Outgoing): SentDocument {
  return {
    commands: typeof o.commands === 'number' ? o.commands : o.commands.length,
    beforePayment: o.beforePayment,
    marker: o.marker,
    reference: o.reference,
    expectedCents: o.expectedCents,
  };
}

function unreachable(reason: string): AgentError {
  return notReachedError(reason, rchResults.notPrintedUnreachable({ reason }));
}

/** The RCH family's sentences for one document's outcomes. */
export function rchOutgoingWords(o: Pick<Outgoing, 'label' | 'marker' | 'reference'>): OutgoingWords {
  const ref = o.reference;
  return rtOutgoingWords({
    label: o.label,
    unconfirmed: () =>
      o.marker === undefined && ref
        ? rchResults.voidUnconfirmed({ label: docLabel(ref.z, ref.doc) })
        : rchResults.unconfirmed({ marker: o.marker ?? '' }),
    disagree: () => rchResults.memoryDisagrees(),
    notPrinted: { message: 'Printer answer lost; not printed', notes: () => rchResults.notPrintedProven() },
    ...(o.marker ? { details: { marker: o.marker } } : {}),
  });
}

/**
 * One RCH document for the kit's `sendDocument`: protocol only. Before: the state (`<</?s`,
 * `<</?7`) — a document open is another till's, never cancelled; the key back to REG when it is
 * not; the journal's last document when the counters cannot name it. The answer's class by how
 * many commands ran (`lastCmd`, witnesses.ts); the witnesses; the printed result.
 */
export function rchDocument(
  d: DocumentDeps,
  o: Outgoing,
): OutgoingDocument<Baseline, Evidence, PrintedDocument> {
  const sent = sentOf(o);
  /** `lastCmd` of the document's own answer; undefined while none came. */
  let lastCmd: number | undefined;
  const proved = () => lastCmd !== undefined && lastCmd >= sent.commands;
  return {
    async before(signal): Promise<BeforeSend<Baseline>> {
      const now = await readPatiently((s) => d.link.readState(s), d.clock, d.options, signal);
      if (now.kind === 'away') throw unreachable(now.reason);
      if (now.kind === 'busy') throw busyError();
      if (now.kind === 'unreadable') {
        d.log.warn('printer state unreadable before sending: a lost answer will be unknown', {
          read: now.what,
        });
        return { kind: 'ready', baseline: null };
      }
      const state = now.evidence;
      d.board.noteState(state);
      if (!state.idle) return { kind: 'other-till', read: state.read };
      if (!isRegister(state) && !(await d.link.toRegister(signal))) {
        throw new AgentError('DEVICE_ERROR', `RCH printer in ${state.mode}, not REG`, {
          notes: rchRefusals.notRegistering(),
          details: { nothingSent: true },
        });
      }
      if (o.reference && typeof o.commands !== 'number') await checkReference(d, o.reference, signal);
      if (state.z !== undefined && state.doc !== undefined && state.doc > 0) {
        return { kind: 'ready', baseline: baselineOf(state) };
      }
      // The counters cannot name the last document: the journal's is the baseline.
      const journal = await d.link.readJournal(signal);
      const last = journal.kind === 'read' ? journal.document : undefined;
      return {
        kind: 'ready',
        baseline: baselineOf(
          state,
          last === undefined ? null : last === 'empty' ? 'empty' : last.fingerprint,
        ),
      };
    },
    checkpoint(baseline, sentAt): SendingCheckpoint {
      const checkpoint: SendingCheckpoint = {
        v: CHECKPOINT_VERSION,
        phase: 'sending',
        label: o.label,
        commands: sent.commands,
        beforePayment: sent.beforePayment,
        baseline,
        sentAt,
      };
      if (o.marker !== undefined) checkpoint.marker = o.marker;
      if (o.expectedCents !== undefined) checkpoint.expectedCents = o.expectedCents;
      if (o.reference) checkpoint.reference = o.reference;
      if (o.lottery) checkpoint.lottery = true;
      return checkpoint;
    },
    post(holdUntil) {
      if (typeof o.commands === 'number')
        throw new AgentError('INTERNAL', 'a checkpoint is never sent again');
      return d.link.sendDocument(o.commands, holdUntil);
    },
    classify(result) {
      const meaning = classify(result, sent);
      if (meaning.answered) {
        lastCmd = meaning.answered.lastCmd;
        d.board.noteFlags(meaning.answered);
      }
      return meaning.class;
    },
    read: (signal) =>
      // The journal names the document when the counters cannot, and proves it ours when the answer did not.
      d.link.readEvidence((state) => !proved() || state.z === undefined || state.doc === undefined, signal),
    witnesses: (baseline, evidence) => rchWitnesses(sent, baseline, evidence, lastCmd),
    rebase: (_baseline, evidence) => baselineOf(evidence.state),
    resetOwn: async () => {
      // Only a document this request opened (lastCmd counted its first commands), never another till's.
      if (lastCmd === undefined || lastCmd < 1 || lastCmd >= sent.commands) return;
      const now = await d.link.readState();
      if (now.kind === 'read' && !now.evidence.idle) await d.link.cancelOpen();
    },
    result: (printed) => printedResult(d, o, printed),
    words: rchOutgoingWords(o),
  };
}

/**
 * Asks the printer whether the original of a refund or void may be refunded or voided: the same
 * command with `/*1`, "check only" (rch-driver-js-core `returnGoods`, `returnReceipt`; the JavaPOS
 * driver iconic gutenbergPrinter-rch asks first too, `RefundCommands.java` `isRefundableDocument`).
 * **Inferred** (no source shows its answer): errorCode 0 when it can be done, a refusal when not —
 * which refuses the document before it is sent. A check the printer does not answer leaves the
 * reference to the printer's own check when the document comes.
 */
async function checkReference(d: DocumentDeps, ref: DocumentReference, signal: AbortSignal): Promise<void> {
  if (!d.options.checkReferences) return;
  const check = ref.kind === 'VOID' ? voidOf(ref, d.serial(), true) : refundOpen(ref, true);
  const asked = await d.link.ask([check], signal);
  const answer = asked.answered ? asked.answer : undefined;
  if (answer && !answer.busy && answer.errorCode !== 0) {
    throw new AgentError(
      'FISCAL_REJECTED',
      `The printer refuses the ${ref.kind === 'VOID' ? 'void' : 'refund'}`,
      {
        notes: rchRefusals.referenceRefused({
          kind: ref.kind,
          label: docLabel(ref.z, ref.doc),
          date: `${ref.date.slice(0, 2)}/${ref.date.slice(2, 4)}/${ref.date.slice(4)}`,
          code: String(answer.errorCode),
        }),
        details: { printerCode: answer.errorCode, nothingSent: true },
        retryable: false,
      },
    );
  }
  if (!answer || answer.busy)
    d.log.warn('reference check unanswered: the printer checks the reference itself');
}

/**
 * What the answer to a document's request means, by how far it went (`lastCmd`): all commands → printed
 * (the numbers come from the witnesses); busy with none → another request holds the printer, nothing
 * taken, send again once it is free (WS manual V5 §3); stopped before any payment → refused, nothing
 * printed (our own open document is cancelled); stopped after a payment ran → the witnesses decide.
 */
function classify(
  result: PostResult,
  sent: SentDocument,
): { class: AnswerClass<PrintedDocument>; answered?: RchAnswer } {
  if (result.kind === 'not-sent') return { class: { kind: 'not-taken', error: unreachable(result.reason) } };
  if (result.kind === 'lost') return { class: { kind: 'uncertain', reason: `no answer (${result.reason})` } };
  const answer = result.httpStatus === 200 ? parseAnswer(result.body) : undefined;
  if (!answer)
    return { class: { kind: 'uncertain', reason: `unreadable answer (HTTP ${result.httpStatus})` } };
  const read = `errorCode ${answer.errorCode}, lastCmd ${answer.lastCmd}`;
  if (answer.busy && answer.lastCmd === 0)
    return { class: { kind: 'other-till', read: 'printer busy' }, answered: answer };
  if (answer.lastCmd >= sent.commands && answer.errorCode === 0)
    return { class: { kind: 'printed' }, answered: answer };
  if (answer.lastCmd <= sent.beforePayment && answer.errorCode !== 0) {
    return { class: { kind: 'refused', error: refusalOf(answer) }, answered: answer };
  }
  const standing = answer.errorCode !== 0 ? refusalOf(answer) : undefined;
  return {
    class: { kind: 'uncertain', reason: `printer answered ${read}`, ...(standing ? { standing } : {}) },
    answered: answer,
  };
}

/**
 * The printed document's result; the page and the fiscal day learn of it, and the printer's history
 * (`history-ring.ts`) whether a sale carried a lottery code, for its refund (plan.ts).
 */
export function printedResult(
  d: DocumentDeps,
  o: Pick<Outgoing, 'label' | 'reference' | 'marker' | 'lottery'>,
  printed: Pick<PrintedOutcome<PrintedDocument>, 'document' | 'recovered'>,
): JobResult {
  const doc = printed.document;
  const serial = d.serial();
  const serialWords = serial ?? rchResults.unknownSerial();
  const details: Record<string, unknown> = { printerSerial: serial ?? null };
  if (o.marker) details.marker = o.marker;
  if (o.reference) details.reference = referenceText(o.reference);
  if (printed.recovered) details.recovered = true;
  if (doc?.z === undefined || doc.doc === undefined) {
    d.state.dayOpen(d.clock.now(), false);
    return { notes: rchResults.printedUnnumbered({ serial: serialWords }), details };
  }
  const label = docLabel(doc.z, doc.doc);
  Object.assign(details, { receiptNumber: label, zNumber: doc.z, documentNumber: doc.doc });
  if (doc.dateTime) details.dateTime = doc.dateTime;
  d.board.noteReceipt(label);
  d.state.remember({ z: doc.z, doc: doc.doc, kind: o.label, ...(o.lottery ? { lottery: true } : {}) });
  d.state.dayOpen(d.clock.now(), doc.doc === 1);
  const words = { kind: o.label, label, serial: serialWords };
  return { notes: printed.recovered ? rchResults.recovered(words) : rchResults.printed(words), details };
}

const referenceText = (ref: DocumentReference) => `${ref.kind} ${docLabel(ref.z, ref.doc)} ${ref.date}`;
