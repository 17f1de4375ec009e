import type { EncodedKey } from '../../drivers/fias-lock/simulator/index.js';
import {
  epsonProblems,
  fiasCards,
  keyProblems,
  type LedgerLine,
  ledgerCards,
  type PrintedDoc,
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
  /** What the RT printer simulator printed. */
  printed: readonly PrintedDoc[];
  /** The cards the Salto encoder simulator wrote. */
  saltoWritten: readonly WrittenCard[];
  /** The keys the FIAS lock-server simulator wrote. */
  fiasWritten: readonly EncodedKey[];
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
    ...epsonProblems(on(FAULT_DEVICES.epson), r.printed, r.histories),
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
