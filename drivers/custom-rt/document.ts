import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { FiscalState } from '../fiscal-it/rt/fiscal-state.js';
import type { PostResult } from '../fiscal-it/rt/http.js';
import type { AnswerClass, BeforeSend, OutgoingDocument, OutgoingWords } from '../fiscal-it/rt/outgoing.js';
import { rtOutgoingWords } from '../fiscal-it/rt/outgoing-words.js';
import { readPatiently } from '../fiscal-it/rt/printer-read.js';
import { notReachedError } from '../fiscal-it/rt/send.js';
import { CHECKPOINT_VERSION, type SendingCheckpoint } from './checkpoint.js';
import type { CustomRtOptions } from './config.js';
import { refusal } from './errors.js';
import type { Counters, CustomLink } from './link.js';
import { customRefusals, customResults } from './messages.js';
import type { CustomPlan } from './plan.js';
import { docLabel, numbersOf, type Printed, printedResult } from './results.js';
import type { StatusBoard } from './status.js';
import { type Baseline, baselineOf, customWitnesses, isOwnId, type PrintedDocument } from './witnesses.js';
import { parseResponse } from './xml.js';

/** What a Custom document needs of the driver. */
export interface DocumentDeps {
  link: CustomLink;
  options: CustomRtOptions;
  clock: Clock;
  log: Logger;
  board: StatusBoard;
  state: FiscalState;
  serial(): string | undefined;
}

function unreachable(reason: string): AgentError {
  return notReachedError(reason, customResults.notPrintedUnreachable({ reason }));
}

/** The Custom family's sentences for one document's outcomes (catalogue keys Notes keep). */
export function customOutgoingWords(label: string): OutgoingWords {
  return rtOutgoingWords({
    label,
    unconfirmed: () => customResults.unconfirmed(),
    disagree: () => customResults.memoryDisagrees(),
    notPrinted: {
      message: 'Printer did not answer; not printed',
      notes: () => customResults.notPrintedSilent(),
    },
  });
}

/**
 * One Custom document for the kit's `sendDocument`: protocol only. The answer's class by status
 * code (errors.ts), the witnesses (witnesses.ts), the baseline and the open document read just
 * before (`getInfo` + 1017: a document open under another's `IdCmd` is another till's, never
 * reset), and the printed result.
 */
export function customDocument(
  d: DocumentDeps,
  plan: CustomPlan,
): OutgoingDocument<Baseline, Counters, PrintedDocument> {
  const sent = { ids: plan.ids, expectedCents: plan.expectedCents };
  const read = (signal?: AbortSignal) => d.link.readCounters(signal);
  return {
    async before(signal): Promise<BeforeSend<Baseline>> {
      const now = await readPatiently(read, d.clock, d.options, signal);
      if (now.kind === 'away') throw unreachable(now.reason);
      if (now.kind === 'busy') throw refusal(Number(now.code)).error;
      if (now.kind === 'unreadable') {
        d.log.warn('counters unreadable before sending: a lost answer will be unknown', { read: now.what });
        return { kind: 'ready', baseline: null };
      }
      d.board.touched();
      const c = now.evidence;
      if (!c.documentOpen) return { kind: 'ready', baseline: baselineOf(c) };
      if (isOwnId(c.lastIdCmd, plan.ids)) return { kind: 'own-open', baseline: baselineOf(c) };
      return { kind: 'other-till', read: `document open, lastIdCmd ${c.lastIdCmd ?? 'none'}` };
    },
    checkpoint(baseline, sentAt): SendingCheckpoint {
      const checkpoint: SendingCheckpoint = {
        v: CHECKPOINT_VERSION,
        phase: 'sending',
        label: plan.label,
        ids: plan.ids,
        baseline,
        sentAt,
      };
      if (plan.expectedCents !== undefined) checkpoint.expectedCents = plan.expectedCents;
      if (plan.reference) checkpoint.reference = plan.reference;
      return checkpoint;
    },
    post: (holdUntil) => d.link.sendDocument(plan.xml, undefined, holdUntil),
    classify: (result) => classify(d, result),
    read,
    witnesses: (baseline, counters) => customWitnesses(sent, baseline, counters),
    rebase: (_baseline, counters) => baselineOf(counters),
    resetOwn: async () => {
      // Only a document the agent opened: its own IdCmd came last (never another till's).
      const now = await read();
      if (now.kind === 'read' && now.evidence.documentOpen && isOwnId(now.evidence.lastIdCmd, plan.ids))
        await d.link.reset();
    },
    result: (printed) => {
      const doc = printed.document;
      return finishPrinted(d, plan, {
        z: doc?.z,
        doc: doc?.doc,
        dateTime: doc?.dateTime,
        totalCents: doc?.totalCents,
        recovered: printed.recovered,
      });
    },
    words: customOutgoingWords(plan.label),
  };
}

function classify(d: DocumentDeps, result: PostResult): AnswerClass<PrintedDocument> {
  if (result.kind === 'not-sent') return { kind: 'not-taken', error: unreachable(result.reason) };
  if (result.kind === 'lost') return { kind: 'uncertain', reason: `no answer (${result.reason})` };
  if (result.httpStatus === 401 || result.httpStatus === 403) {
    const error = new AgentError('DEVICE_ERROR', `printer.htm answered HTTP ${result.httpStatus}`, {
      notes: customRefusals.credentialsRefused({ status: result.httpStatus }),
      retryable: false,
    });
    return { kind: 'not-taken', error };
  }
  const response = result.httpStatus < 300 ? parseResponse(result.body) : undefined;
  if (!response) return { kind: 'uncertain', reason: `unreadable answer (HTTP ${result.httpStatus})` };
  if (response.success) {
    const numbers = numbersOf(response.addInfo);
    if (!numbers) return { kind: 'printed' };
    return { kind: 'printed', document: { z: numbers.z, doc: numbers.doc, dateTime: '', totalCents: 0 } };
  }
  d.board.noteStatus(response);
  const meaning = refusal(response.status);
  switch (meaning.kind) {
    case 'done':
      return { kind: 'printed', confirm: `printer answered ${response.status}` };
    case 'other-till':
      return { kind: 'other-till', read: `status ${response.status}` };
    case 'ambiguous':
      return { kind: 'uncertain', reason: `printer answered ${response.status}`, standing: meaning.error };
    case 'busy':
      return { kind: 'not-taken', error: meaning.error };
    default:
      return { kind: 'refused', error: meaning.error };
  }
}

/** The printed document's result; the page and the fiscal day learn of it. */
export function finishPrinted(
  d: DocumentDeps,
  plan: Pick<CustomPlan, 'label' | 'reference' | 'sold' | 'lottery'>,
  numbers: Omit<Printed, 'kind' | 'serial' | 'reference'>,
): JobResult {
  const printed: Printed = {
    ...numbers,
    dateTime: numbers.dateTime || undefined,
    totalCents: numbers.totalCents || undefined,
    kind: plan.label,
    serial: d.serial(),
    reference: plan.reference,
  };
  if (printed.z !== undefined && printed.doc !== undefined) {
    d.board.noteReceipt(docLabel(printed.z, printed.doc));
    d.state.remember({
      z: printed.z,
      doc: printed.doc,
      kind: plan.label,
      ...(plan.sold ? { lines: plan.sold } : {}),
      ...(plan.lottery ? { lottery: true } : {}),
    });
    d.state.dayOpen(d.clock.now(), printed.doc === 1);
  } else d.state.dayOpen(d.clock.now(), false);
  return printedResult(printed);
}
