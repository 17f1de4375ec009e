import type { Message } from '../../src/messages/message.js';
import type { DocumentReference } from '../fiscal-it/reference.js';
import type { WitnessReading } from '../fiscal-it/rt/outgoing.js';
import type { Witness } from '../fiscal-it/rt/witnesses.js';
import { printsLine, voidsReference } from './journal.js';
import type { Evidence, PrinterState } from './link.js';
import { rchResults as m } from './messages.js';

/**
 * The RCH printer's three witnesses of a document the agent sent. RCH has no request id; the kit
 * decides from these (`drivers/fiscal-it/rt/witnesses.ts`: printed or not printed only when the
 * ones that speak agree, anything else unknown, never a resend):
 *
 * 1. `lastCmd` — how many of the request's commands the printer carried out, from the document's
 *    own answer (lyancoder/fiscal-printer `xml-RCH-http.ts`; a refusal stops the request there:
 *    RCH "Manuale Web Service Print! F" V5 §3). All of them → printed (the last payment, which pays
 *    what is left, closes the document: optyker-web `Emit-Receipt` finds the printer idle after
 *    it); none of the payments → not printed; some payment but not all → silent (a payment ran,
 *    so the document may have closed); no answer (lost, or a restart) → silent.
 * 2. `counters` — the Z count (`<</?7`) and the open day's last document (`<</?s` `lastDocF`)
 *    against the baseline read before the request: unmoved → not printed; the next document of the
 *    same day → printed (numbered Z + 1, lyancoder README "27: lastZ + 1"); anything else, or a
 *    count that cannot be read → unknown. Firmware whose `<</?s` omits them (optyker's 2026-09-12
 *    notes saw only `mode` and `idleState`) leaves the counters silent.
 * 3. `journal` — the marker line the document printed (`="/?A/(RIF. …)`), looked for in the
 *    electronic journal's last document (`=C453/$0`, optyker `Parse-ReceiptJournal`); a void,
 *    which `=k` prints at once and so carries no marker, is recognised by the original it names.
 *    Ours → printed, with its number, date and total (a total that is not ours → unknown); not
 *    ours → not printed only when it is the very document that was last before the request
 *    (by its number, or by its fingerprint when the counters could not name it), else unknown;
 *    not read because nothing needed it → silent; a document open → silent (the journal is read
 *    under another key, and the key does not change with a document open); unreadable → unknown.
 */
export interface Baseline {
  /** Closures made and the open day's last document, when the printer reports them. */
  z: number | null;
  doc: number | null;
  /** The journal's last document before the request (`journal.ts` fingerprint, or `empty`), when read. */
  journal: string | null;
}

/** What the agent sent, as the witnesses need it. */
export interface SentDocument {
  /** How many commands the request holds, and how many come before its first payment. */
  commands: number;
  beforePayment: number;
  /** The marker line it prints; a void has none. */
  marker?: string | undefined;
  reference?: DocumentReference | undefined;
  expectedCents?: number | undefined;
}

/** A printed document as the witnesses identify it. */
export interface PrintedDocument {
  z?: number | undefined;
  doc?: number | undefined;
  dateTime?: string | undefined;
  totalCents?: number | undefined;
}

export function baselineOf(state: PrinterState, journal: string | null = null): Baseline {
  return { z: state.z ?? null, doc: state.doc ?? null, journal };
}

const witness = (name: string, verdict: Witness['verdict'], read: string, reason?: Message): Witness => ({
  name,
  verdict,
  read,
  ...(reason ? { reason } : {}),
});

/** The `lastCmd` witness, and whether the request left its own document open. */
export function lastCmdWitness(
  sent: SentDocument,
  lastCmd: number | undefined,
  state: PrinterState,
): { witness: Witness; ownOpen: boolean } {
  if (lastCmd === undefined) return { witness: witness('lastCmd', 'silent', 'no answer'), ownOpen: false };
  const read = `${lastCmd} of ${sent.commands}`;
  if (lastCmd >= sent.commands) return { witness: witness('lastCmd', 'printed', read), ownOpen: false };
  if (lastCmd <= sent.beforePayment) {
    return { witness: witness('lastCmd', 'not-printed', read), ownOpen: lastCmd >= 1 && !state.idle };
  }
  return { witness: witness('lastCmd', 'silent', read), ownOpen: false };
}

function countersWitness(
  baseline: Baseline | null,
  state: PrinterState,
): { witness: Witness; document?: PrintedDocument } {
  const read = `Z ${state.z ?? '?'}, lastDocF ${state.doc ?? '?'}`;
  if (!baseline) return { witness: witness('counters', 'unknown', read, m.countersUnknown()) };
  if (baseline.z === null || baseline.doc === null) {
    const reported = state.z !== undefined && state.doc !== undefined;
    return reported
      ? { witness: witness('counters', 'unknown', read, m.countersUnknown()) }
      : { witness: witness('counters', 'silent', read) };
  }
  if (state.z === undefined || state.doc === undefined) {
    return { witness: witness('counters', 'unknown', read, m.memoryUnreadable()) };
  }
  if (state.z === baseline.z && state.doc === baseline.doc)
    return { witness: witness('counters', 'not-printed', read) };
  if (state.z === baseline.z && state.doc === baseline.doc + 1) {
    return { witness: witness('counters', 'printed', read), document: { z: state.z + 1, doc: state.doc } };
  }
  return { witness: witness('counters', 'unknown', read, m.memoryDisagrees()) };
}

function journalWitness(
  sent: SentDocument,
  baseline: Baseline | null,
  evidence: Evidence,
): { witness: Witness; document?: PrintedDocument } {
  const j = evidence.journal;
  if (j.kind === 'not-read') return { witness: witness('journal', 'silent', j.why) };
  if (j.kind === 'unreadable')
    return { witness: witness('journal', 'unknown', j.what, m.memoryUnreadable()) };
  const doc = j.document;
  if (doc === 'empty') {
    const verdict = baseline?.journal === 'empty' ? 'not-printed' : 'unknown';
    return { witness: witness('journal', verdict, 'empty', m.memoryDisagrees()) };
  }
  const label = doc.number ? `${doc.number.z}-${doc.number.doc}` : 'management document';
  const ours =
    (sent.marker !== undefined && printsLine(doc, sent.marker)) ||
    (sent.marker === undefined && sent.reference !== undefined && voidsReference(doc, sent.reference));
  if (ours) {
    const total = sent.expectedCents;
    if (total !== undefined && doc.totalCents !== undefined && doc.totalCents !== total) {
      return {
        witness: witness('journal', 'unknown', `${label}, total ${doc.totalCents}`, m.memoryDisagrees()),
      };
    }
    const document: PrintedDocument = { dateTime: doc.dateTime, totalCents: doc.totalCents };
    if (doc.number) Object.assign(document, doc.number);
    return { witness: witness('journal', 'printed', `${label} (ours)`), document };
  }
  // Not ours: "not printed" only when it is the very document that was last before the request.
  let wasLast = false;
  if (baseline?.journal) wasLast = baseline.journal === doc.fingerprint;
  else if (baseline && baseline.z !== null && baseline.doc !== null && doc.number) {
    wasLast = doc.number.z === baseline.z + 1 && doc.number.doc === baseline.doc;
  }
  const verdict = wasLast ? 'not-printed' : 'unknown';
  return { witness: witness('journal', verdict, `${label} (not ours)`, m.otherDocument()) };
}

/** The three witnesses of `sent` (see above); `lastCmd` is the document's own answer's, if one came. */
export function rchWitnesses(
  sent: SentDocument,
  baseline: Baseline | null,
  evidence: Evidence,
  lastCmd: number | undefined,
): WitnessReading<PrintedDocument> {
  const command = lastCmdWitness(sent, lastCmd, evidence.state);
  const counters = countersWitness(baseline, evidence.state);
  const journal = journalWitness(sent, baseline, evidence);
  const reading: WitnessReading<PrintedDocument> = {
    witnesses: [command.witness, counters.witness, journal.witness],
    ownDocumentOpen: command.ownOpen,
  };
  // The journal names the document with its date and total; the counters only with its numbers.
  const document = journal.document ?? counters.document;
  if (document) reading.document = document;
  return reading;
}
