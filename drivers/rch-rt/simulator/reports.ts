import { RCH_CODE, RchRefusal } from './codes.js';
import { digits, field, type NativeCommand } from './grammar.js';
import { fileDocument } from './journal.js';
import { emptyDay, type PrinterState, type Programming, requireIdle } from './state.js';
import type { RchKey } from './types.js';

/**
 * The keys, the reports and the journal read.
 *
 * `=C1` REG, `=C2` X, `=C3` Z, `=C4` PRG, `=C5` SERVICE select the key (rch-driver-js-core
 * `src/Core.ts` `reg()`…`srv()`; iconic gutenbergPrinter-rch `SharedPrinterFields.java` KEY_REG …
 * KEY_SRV). `=C10` runs the report of the key it is given in: the X report under `=C2`, the daily
 * closure (Z) under `=C3` (core `xReport()`/`zReport()` are both `=C10`; rch-driver-js
 * `src/Driver.ts` `xReport`, `zReport` select the key first). Sales need REG: optyker-web
 * `rch-auto-reg.js` puts a printer "left idle in Z" back into REG with `=C1` before a receipt.
 *
 * `=C453/$0` reads the last document of the electronic journal without printing it, and the
 * sources disagree on the key it needs: rch-driver-js `src/Driver.ts` `getLastReceipt` selects
 * PRG (`=C4`) first, while iconic gutenbergPrinter-rch `FiscalPrinterDriver.java`
 * `getReceiptFromEj` and optyker `rch-connector/rch-optyker-connector.ps1` `Read-PrintedReceipt`
 * ("Protocol v14 p24: =C3 selects Z; =C453/$0 reads without printing") select Z (`=C3`). The
 * simulator takes it under either, so a driver can use both; under REG, X or SERVICE it refuses.
 *
 * **Inferred**: the refusal codes; a key change refused while a document is open; a Z refused when
 * no commercial document was issued since the last one; that the last document of the journal is
 * whatever was printed last, reports included.
 */

const KEYS: Record<string, RchKey> = { C1: 'REG', C2: 'X', C3: 'Z', C4: 'PRG', C5: 'SERVICE' };

/** Whether the verb is a key selection (`C1`…`C5`). */
export function isKeyVerb(verb: string): boolean {
  return verb in KEYS;
}

export function selectKey(s: PrinterState, verb: string): void {
  const key = KEYS[verb];
  if (!key) throw new RchRefusal(RCH_CODE.invalidCommand);
  if (key !== s.key) requireIdle(s);
  s.key = key;
}

/** `=C10` under X or Z. */
export function runReport(p: Programming, s: PrinterState): void {
  if (s.key !== 'X' && s.key !== 'Z') throw new RchRefusal(RCH_CODE.wrongKey);
  requireIdle(s);
  const totals = structuredClone(s.day);
  const base = {
    terminal: 'web-service' as const,
    lines: [],
    payments: [],
    totalCents: totals.sales.cents,
    changeCents: 0,
    vat: { ...totals.vatSales },
    voided: false,
    refunded: {},
    totals,
  };
  if (s.key === 'X') {
    fileDocument(p, s, { kind: 'x-report', ...base });
    return;
  }
  if (!s.dayOpen) throw new RchRefusal(RCH_CODE.noOpenDay);
  s.lastZ += 1;
  fileDocument(p, s, { kind: 'z-report', ...base });
  s.dayOpen = false;
  s.lastDoc = 0;
  s.day = emptyDay();
}

/** `=C453/$0`: the last journal document's text, under Z or PRG. Other `$` selectors are not simulated. */
export function readLastDocument(s: PrinterState, c: NativeCommand): string {
  if (digits(field(c, '$')) !== 0) throw new RchRefusal(RCH_CODE.invalidCommand);
  if (s.key !== 'Z' && s.key !== 'PRG') throw new RchRefusal(RCH_CODE.wrongKey);
  const last = [...s.documents].reverse().find((d) => d.journal.length > 0);
  return last ? last.journal.join('\n') : '';
}
