import { rtKitWords } from '../fiscal-it/rt/messages.js';
import type { WitnessReading } from '../fiscal-it/rt/outgoing.js';
import type { Witness } from '../fiscal-it/rt/witnesses.js';
import type { IdPair } from './idcmd.js';
import type { Counters } from './link.js';
import { customResults as m } from './messages.js';

/**
 * The Custom printer's two witnesses of a document the agent sent (the kit decides from them,
 * `drivers/fiscal-it/rt/witnesses.ts`):
 *
 * 1. `lastIdCmd` — the last `IdCmd` the printer took, with whether a document is open (XML
 *    protocol manual rev 2.00 p.25; `fpStatus`/`receiptStep` pp.25–28):
 *    | last id                 | no document open | a document open                  |
 *    | ----------------------- | ---------------- | -------------------------------- |
 *    | our end id              | printed          | not printed, ours open (p.16: the answer follows the end node; an open document was never closed) |
 *    | our begin id            | not printed      | not printed, ours open           |
 *    | another's               | not printed      | not printed (another till's)     |
 *    | none                    | silent: a printer that restarted forgets it (RAM) |
 * 2. the counters — the Z reports done (`getInfo` `zSetNumber`, p.69) and the last document
 *    (directIO 1017, directIO manual rev 6.00 p.40) against the baseline read before sending:
 *    unmoved → not printed; moved to exactly the next document, fiscal, not cancelled, with our
 *    total → printed; moved otherwise → unknown; a 1017 answer that cannot be read, a Z count
 *    that cannot be read, or no baseline → unknown (issue 42: after a power cut `lastIdCmd` is
 *    gone, and an unreadable 1017 must never count as "not printed").
 */
export interface Baseline {
  zDone: number | null;
  doc: number | null;
  dateTime: string | null;
}

/** A printed document as the counters show it. */
export interface PrintedDocument {
  z: number | undefined;
  doc: number;
  dateTime: string;
  totalCents: number;
}

export interface SentDocument {
  ids: IdPair;
  expectedCents?: number | undefined;
}

export function baselineOf(counters: Counters): Baseline {
  const last = typeof counters.last === 'object' ? counters.last : undefined;
  return { zDone: counters.zDone ?? null, doc: last?.doc ?? null, dateTime: last?.dateTime ?? null };
}

/** Whether `lastIdCmd` is one of the agent's ids for this document, any attempt (`idcmd.ts`). */
export function isOwnId(lastIdCmd: string | undefined, ids: IdPair): boolean {
  if (!lastIdCmd || lastIdCmd.length !== ids.begin.length) return false;
  return lastIdCmd.slice(0, -2) === ids.begin.slice(0, -2);
}

function idWitness(c: Counters, ids: IdPair): { witness: Witness; ownOpen: boolean } {
  const read = `${c.lastIdCmd ?? 'none'}${c.documentOpen ? ' (document open)' : ''}`;
  const w = (verdict: Witness['verdict'], reason?: Witness['reason']): Witness => ({
    name: 'lastIdCmd',
    verdict,
    read,
    ...(reason ? { reason } : {}),
  });
  if (!c.lastIdCmd) return { witness: w('silent'), ownOpen: false };
  if (c.lastIdCmd === ids.end) {
    return c.documentOpen
      ? { witness: w('not-printed'), ownOpen: true }
      : { witness: w('printed'), ownOpen: false };
  }
  if (c.lastIdCmd === ids.begin) return { witness: w('not-printed'), ownOpen: c.documentOpen };
  return { witness: w('not-printed'), ownOpen: c.documentOpen && isOwnId(c.lastIdCmd, ids) };
}

function counterWitness(
  baseline: Baseline | null,
  c: Counters,
  expectedCents: number | undefined,
): { witness: Witness; document?: PrintedDocument } {
  const last = c.last;
  const read = `Z ${c.zDone ?? '?'}, 1017 ${c.lastRaw || '—'}`;
  const unknown = (reason: Witness['reason']): { witness: Witness } => ({
    witness: { name: 'counters', verdict: 'unknown', read, ...(reason ? { reason } : {}) },
  });
  if (!baseline || baseline.zDone === null) return unknown(m.countersUnknown());
  if (c.zDone === undefined || last === 'unreadable') return unknown(m.memoryUnreadable());
  const doc = typeof last === 'object' ? last : undefined;
  const unmoved =
    c.zDone === baseline.zDone &&
    (doc ? doc.doc === baseline.doc && doc.dateTime === baseline.dateTime : baseline.doc === null);
  if (unmoved) return { witness: { name: 'counters', verdict: 'not-printed', read } };
  const next = c.zDone === baseline.zDone && doc !== undefined && doc.doc === (baseline.doc ?? 0) + 1;
  const ours =
    doc !== undefined &&
    doc.type === 'fiscal' &&
    !doc.cancelled &&
    (expectedCents === undefined || doc.totalCents === expectedCents);
  if (!next || !ours || !doc) return unknown(m.memoryDisagrees());
  return {
    witness: { name: 'counters', verdict: 'printed', read },
    document: { z: c.zDone + 1, doc: doc.doc, dateTime: doc.dateTime, totalCents: doc.totalCents },
  };
}

/** The two witnesses of `sent` in `counters` (see above). */
export function customWitnesses(
  sent: SentDocument,
  baseline: Baseline | null,
  counters: Counters,
): WitnessReading<PrintedDocument> {
  const id = idWitness(counters, sent.ids);
  const count = counterWitness(baseline, counters, sent.expectedCents);
  if (id.witness.verdict === 'not-printed' && id.ownOpen && counters.lastIdCmd === sent.ids.end) {
    id.witness.reason = rtKitWords.openNotClosed();
  }
  const reading: WitnessReading<PrintedDocument> = {
    witnesses: [id.witness, count.witness],
    ownDocumentOpen: id.ownOpen,
  };
  if (count.document) reading.document = count.document;
  return reading;
}
