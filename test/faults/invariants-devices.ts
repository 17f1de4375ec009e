import type { HistoryEntry } from '../../src/platform-simulator/index.js';
import { describe, type Histories } from './invariants-platform.js';
import type { PlannedCommand } from './plan.js';

/**
 * The campaign's device-side invariants: what the devices did (simulated ledgers, the fpmate
 * simulator's printed documents, the encoder simulator's cards) against what the platform was
 * told. One line per violation, naming the invariant and the command.
 */

/** A line of a simulated device's ledger. */
export interface LedgerLine {
  commandId: string;
  action: string;
  facts: Record<string, unknown>;
}

/** A fiscal document the fpmate simulator emitted. */
export interface PrintedDoc {
  kind: string;
  z: number;
  doc: number;
  at: number;
  totalCents: number;
}

/** A card the Salto encoder simulator wrote. */
export interface WrittenCard {
  printLines: string[];
  at: number;
}

const FISCAL_DOCS = new Set(['sale', 'refund', 'void']);

function final(histories: Histories, id: string): HistoryEntry | undefined {
  return histories.get(id)?.at(-1);
}

/** The error code the agent's Error notes end with: "… (PAPER_OUT)" or "… (STATE_UNKNOWN: …)". */
export function errorCode(notes: string | undefined): string | undefined {
  const all = [...(notes ?? '').matchAll(/\(([A-Z][A-Z_]+)(?::|\))/g)];
  return all.at(-1)?.[1];
}

const reportedUnknown = (entry: HistoryEntry | undefined) =>
  entry?.state === 'Error' && errorCode(entry.notes) === 'STATE_UNKNOWN';

/**
 * Simulated RT printers (ledger per device, one `receipt` line per document): a command prints at
 * most once; Processed means printed exactly once; Error means not printed, unless the notes say
 * the outcome is unknown; no document without a command.
 */
export function simFiscalProblems(
  planned: readonly PlannedCommand[],
  ledger: readonly LedgerLine[],
  histories: Histories,
): string[] {
  const problems: string[] = [];
  const receipts = new Map<string, number>();
  for (const line of ledger) {
    if (line.action === 'receipt') receipts.set(line.commandId, (receipts.get(line.commandId) ?? 0) + 1);
  }
  const known = new Set(planned.map((c) => c.id));
  for (const id of receipts.keys()) {
    if (!known.has(id))
      problems.push(`[no document without a command] a simulated RT printed for unknown command ${id}`);
  }
  for (const c of planned) {
    const printed = receipts.get(c.id) ?? 0;
    const last = final(histories, c.id);
    if (printed > 1) problems.push(`[fiscal at most once] ${describe(c)} was printed ${printed} times`);
    if (last?.state === 'Processed' && printed !== 1) {
      problems.push(`[fiscal at most once] ${describe(c)} is Processed but was printed ${printed} times`);
    }
    if (last?.state === 'Error' && printed > 0 && !reportedUnknown(last)) {
      problems.push(`[fiscal outcome reported] ${describe(c)} was printed but reported Error: ${last.notes}`);
    }
  }
  return problems;
}

const CLAIM = /\b(?:Receipt|Refund) (\d{4})-(\d{4})\b/;

/**
 * An RT printer (its simulator's printed list vs the Notes the agent wrote; the Epson and the
 * Custom drivers both name a document `Receipt zzzz-nnnn`): every Processed
 * command names the document it printed; no document is named twice; every named document was
 * printed; documents nobody names are at most as many as commands reported with an unknown
 * outcome (staff were told to check) — more means something printed without being reported,
 * i.e. printed twice.
 */
export function rtProblems(
  planned: readonly PlannedCommand[],
  printed: readonly PrintedDoc[],
  histories: Histories,
  printerName = 'the Epson RT',
): string[] {
  const problems: string[] = [];
  const docs = printed.filter((d) => FISCAL_DOCS.has(d.kind));
  const key = (z: number, doc: number) => `${String(z).padStart(4, '0')}-${String(doc).padStart(4, '0')}`;
  const claims = new Map<string, PlannedCommand>();
  let unknown = 0;
  const unknownCommands: PlannedCommand[] = [];
  for (const c of planned) {
    const last = final(histories, c.id);
    if (reportedUnknown(last)) {
      unknown++;
      unknownCommands.push(c);
    }
    if (last?.state !== 'Processed') continue;
    const m = CLAIM.exec(last.notes ?? '');
    if (!m) {
      problems.push(
        `[fiscal outcome reported] ${describe(c)} is Processed but its Notes name no receipt: ${last.notes}`,
      );
      continue;
    }
    const label = `${m[1]}-${m[2]}`;
    const other = claims.get(label);
    if (other)
      problems.push(
        `[fiscal at most once] ${describe(c)} and ${describe(other)} both claim receipt ${label}`,
      );
    claims.set(label, c);
    if (!docs.some((d) => key(d.z, d.doc) === label)) {
      problems.push(
        `[fiscal outcome reported] ${describe(c)} claims receipt ${label}, which the printer never emitted`,
      );
    }
  }
  const unclaimed = docs.filter((d) => !claims.has(key(d.z, d.doc)));
  if (unclaimed.length > unknown) {
    const around = (d: PrintedDoc) =>
      planned
        .filter((c) => {
          const h = histories.get(c.id) ?? [];
          const start = h.find((e) => e.state === 'Processing');
          const end = h.at(-1);
          return start && end && Date.parse(start.at) <= d.at + 2000 && Date.parse(end.at) >= d.at - 2000;
        })
        .map((c) => `${c.id} (${final(histories, c.id)?.state})`)
        .join(', ');
    const list = unclaimed
      .map(
        (d) =>
          `${key(d.z, d.doc)} (${(d.totalCents / 100).toFixed(2)} EUR; commands on the printer then: ${around(d) || 'none'})`,
      )
      .join('; ');
    problems.push(
      `[fiscal at most once] ${printerName} printed ${unclaimed.length} documents no command reports, but only ${unknown} ` +
        `commands were reported with an unknown outcome (${unknownCommands.map((c) => c.id).join(', ') || 'none'}): ${list}`,
    );
  }
  return problems;
}

/**
 * Key encoders: a Processed job cut exactly its cards; any cards cut for a job that did not end
 * Processed are reported in its Notes; more cards than asked for only with an Error that says so
 * (never silently: that would be a job run twice); no card without a command.
 */
export function keyProblems(
  planned: readonly PlannedCommand[],
  cards: ReadonlyMap<string, number>,
  histories: Histories,
  deviceName: string,
): string[] {
  const problems: string[] = [];
  const known = new Set(planned.map((c) => c.id));
  for (const [id, n] of cards) {
    if (!known.has(id))
      problems.push(`[no card without a command] ${deviceName} cut ${n} cards for unknown command ${id}`);
  }
  for (const c of planned) {
    const cut = cards.get(c.id) ?? 0;
    const last = final(histories, c.id);
    const asked = c.keyCount ?? 0;
    if (last?.state === 'Processed' && cut !== asked) {
      problems.push(
        `[keys exactly once] ${describe(c)} is Processed with ${cut} cards cut for ${asked} keys`,
      );
    }
    const mentionsCards =
      /\b(key|keys|card|cards)\b/i.test(last?.notes ?? '') &&
      /\bcut\b|written|writing/i.test(last?.notes ?? '');
    if (last?.state !== 'Processed' && cut > 0 && !mentionsCards) {
      problems.push(
        `[cut keys are reported] ${describe(c)} ended ${last?.state ?? 'unknown'} with ${cut} of ${asked} cards cut, ` +
          `and its Notes do not say so: ${last?.notes ?? 'none'}`,
      );
    }
    if (cut > asked && last?.state !== 'Error') {
      problems.push(
        `[keys exactly once] ${describe(c)} cut ${cut} cards for ${asked} keys and ended ${last?.state}`,
      );
    }
  }
  return problems;
}

/** Cards per command of a simulated encoder's ledger. */
export function ledgerCards(ledger: readonly LedgerLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of ledger)
    if (line.action === 'card') out.set(line.commandId, (out.get(line.commandId) ?? 0) + 1);
  return out;
}

/**
 * Cards per command of the Salto encoder simulator: each Salto key command has its own
 * reservation, whose number the card prints (`Res. <number>`). Cards naming no planned
 * reservation are returned under `unknown:<line>`.
 */
export function saltoCards(
  planned: readonly PlannedCommand[],
  written: readonly WrittenCard[],
): Map<string, number> {
  const byNumber = new Map(
    planned.filter((c) => c.reservationNumber).map((c) => [c.reservationNumber as string, c.id]),
  );
  const out = new Map<string, number>();
  for (const card of written) {
    const line = card.printLines.find((l) => l.startsWith('Res. ')) ?? '(no reservation line)';
    const id = byNumber.get(line.slice('Res. '.length)) ?? `unknown:${line}`;
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

/**
 * Keys per command of the FIAS lock-server simulator: each FIAS key command has its own
 * reservation, which every key request carries as `G#`. Keys naming no planned reservation are
 * returned under `unknown:<G#>`.
 */
export function fiasCards(
  planned: readonly PlannedCommand[],
  written: ReadonlyArray<{ reservation?: string }>,
): Map<string, number> {
  const byNumber = new Map(
    planned.filter((c) => c.reservationNumber).map((c) => [c.reservationNumber as string, c.id]),
  );
  const out = new Map<string, number>();
  for (const key of written) {
    const id = byNumber.get(key.reservation ?? '') ?? `unknown:${key.reservation ?? '(no G#)'}`;
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}
