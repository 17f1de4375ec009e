import type { EncodedKey } from '../../drivers/fias-lock/simulator/index.js';
import type { RchDocument } from '../../drivers/rch-rt/simulator/index.js';
import {
  fiasCards,
  keyProblems,
  type LedgerLine,
  ledgerCards,
  type PrintedDoc,
  rtProblems,
  saltoCards,
  simFiscalProblems,
  type WrittenCard,
} from './invariants-devices.js';
import type { Histories } from './invariants-platform.js';
import type { PlannedCommand } from './plan.js';
import { FAULT_DEVICES, type LEDGERS } from './rig.js';

/** What both campaigns read from their world's devices after the run. */
export interface DeviceRecords {
  planned: readonly PlannedCommand[];
  histories: Histories;
  /** The ledger a simulated device wrote (fiscal A and B, the simulated encoder). */
  ledger: (device: keyof typeof LEDGERS) => LedgerLine[];
  /** What the Epson RT printer simulator printed. */
  printed: readonly PrintedDoc[];
  /** What the Custom RT printer simulator printed. */
  customPrinted: readonly PrintedDoc[];
  /** What the RCH RT printer simulator printed. */
  rchPrinted: readonly PrintedDoc[];
  /** The cards the Salto encoder simulator wrote. */
  saltoWritten: readonly WrittenCard[];
  /** The keys the FIAS lock-server simulator wrote. */
  fiasWritten: readonly EncodedKey[];
}

/** What the RCH RT simulator printed, as the invariants read a printed document. */
export function rchPrintedDocs(documents: readonly RchDocument[]): PrintedDoc[] {
  return documents.map((d) => ({ kind: d.kind, z: d.z, doc: d.number, at: d.at, totalCents: d.totalCents }));
}

/**
 * A (well-formed) payload is one family's ready-made document (the platform simulator writes Epson's): on the
 * Custom RT it must end Error, before anything is sent, with Notes asking for the bill data
 * (issue 25.5). That nothing was printed is `rtProblems`' part: an unclaimed document fails it.
 */
function foreignPayloadProblems(planned: readonly PlannedCommand[], histories: Histories): string[] {
  return planned.flatMap((c) => {
    const last = histories.get(c.id)?.at(-1);
    if (last?.state === 'Error' && /bill data|dati del conto/i.test(last.notes ?? '')) return [];
    return [`[a foreign payload is refused] ${c.label} ended ${last?.state}: ${last?.notes}`];
  });
}

/**
 * The device invariants of the campaigns' common world, every device at once: no fiscal document
 * printed twice or unreported, no key job run twice unreported (`invariants-devices.ts`).
 */
export function deviceProblems(r: DeviceRecords): string[] {
  const on = (...devices: string[]) => r.planned.filter((c) => devices.includes(c.deviceId));
  return [
    ...simFiscalProblems(
      on(FAULT_DEVICES.simFiscalA, FAULT_DEVICES.simFiscalB),
      [...r.ledger(FAULT_DEVICES.simFiscalA), ...r.ledger(FAULT_DEVICES.simFiscalB)],
      r.histories,
    ),
    ...rtProblems(on(FAULT_DEVICES.epson), r.printed, r.histories),
    ...rtProblems(on(FAULT_DEVICES.custom), r.customPrinted, r.histories, 'the Custom RT'),
    ...rtProblems(on(FAULT_DEVICES.rch), r.rchPrinted, r.histories, 'the RCH RT'),
    ...foreignPayloadProblems(
      on(FAULT_DEVICES.custom).filter((c) => c.kind === 'fiscal-payload' && !c.malformed),
      r.histories,
    ),
    ...keyProblems(
      on(FAULT_DEVICES.simKeys),
      ledgerCards(r.ledger(FAULT_DEVICES.simKeys)),
      r.histories,
      'Encoder sim',
    ),
    ...keyProblems(
      on(FAULT_DEVICES.salto),
      saltoCards(on(FAULT_DEVICES.salto), r.saltoWritten),
      r.histories,
      'Encoder Salto',
    ),
    ...keyProblems(
      on(FAULT_DEVICES.fias),
      fiasCards(on(FAULT_DEVICES.fias), r.fiasWritten),
      r.histories,
      'Encoder FIAS',
    ),
  ];
}
