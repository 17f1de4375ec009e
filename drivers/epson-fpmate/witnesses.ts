import type { WitnessReading } from '../fiscal-it/rt/outgoing.js';
import type { Witness } from '../fiscal-it/rt/witnesses.js';
import type { Baseline } from './checkpoint.js';
import type { LastDocument } from './last-document.js';
import { epsonResults as m } from './messages-results.js';
import { comparePositions } from './protocol.js';

/**
 * The Epson printer's one witness of a document the agent sent: its last emitted document
 * (`directIO 1387`, last-document.ts) against the baseline — the last fiscal document before it,
 * read just before sending or kept from the previous receipt (fpmate has no request id). The kit
 * decides from it (`drivers/fiscal-it/rt/witnesses.ts`):
 * - `printed`: the counters moved past the baseline to a fiscal document with the expected total
 *   — the next one after a fresh baseline; after a stored one (other tills may have printed
 *   since), exactly the next document or the first of the next Z;
 * - `not-printed`: the counters are exactly the baseline;
 * - `unknown`: no baseline, a non-fiscal last document, counters that went backwards, another
 *   total, documents skipped after a stored baseline.
 */
export function epsonWitness(
  baseline: Baseline | null,
  last: LastDocument,
  expectedCents: number | undefined,
): WitnessReading<LastDocument> {
  const read = `${last.fiscal ? 'fiscal' : 'non-fiscal'} ${last.z}-${last.doc} ${last.totalCents}`;
  const witness = (verdict: Witness['verdict'], reason?: Witness['reason']): Witness => ({
    name: '1387',
    verdict,
    read,
    ...(reason ? { reason } : {}),
  });
  if (!baseline) return { witnesses: [witness('unknown', m.countersUnknown())] };
  if (!last.fiscal) return { witnesses: [witness('unknown', m.lastDocumentNotFiscal())] };
  const order = comparePositions(last, baseline);
  // A half-open fpmate document is the agent's own: fpmate takes one request at a time.
  if (order === 0) return { witnesses: [witness('not-printed')], ownDocumentOpen: true };
  if (order < 0) return { witnesses: [witness('unknown', m.countersBehind())] };
  if (expectedCents !== undefined && last.totalCents !== expectedCents) {
    return { witnesses: [witness('unknown', m.otherTotal())] };
  }
  const next =
    last.z === baseline.z ? last.doc === baseline.doc + 1 : last.z === baseline.z + 1 && last.doc === 1;
  if (!baseline.fresh && !next) return { witnesses: [witness('unknown', m.otherDocuments())] };
  return { witnesses: [witness('printed')], document: last };
}
