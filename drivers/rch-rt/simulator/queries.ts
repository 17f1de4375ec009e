import { localDateTime } from '../../../src/time-zone.js';
import { RCH_CODE, RchRefusal } from './codes.js';
import type { NativeCommand } from './grammar.js';
import type { AnswerPart } from './service-xml.js';
import { type PrinterState, type Programming, sum, vatOf } from './state.js';

/**
 * The `<</?…` queries: they print nothing and answer in any key (rch-driver-js-core `src/Core.ts`
 * lists them; optyker-web `rch-connector/Diagnostica-Protocollo-RCH.ps1` reads `<</?s`, `<</?f`,
 * `<</?m`, `<</?i/*3`, `<</?d`, `<</?7`, `<</?i/*5` from a real printer, "RCH PRINT! F protocol
 * v14, rel.2102, section 2.5.10, pp.58-61").
 *
 * - `<</?s` answers `<ECRStatus>`: `mode` (REG, X, Z, PRG, SERVICE: optyker
 *   `Test-ProtocolIdle`), `idleState` (0 idle, 1 a document open, 2 its payment begun: rch-driver-js
 *   `src/printer/ReceiptStatus.ts`; optyker's tests use 1 for an open document and 2 for
 *   concurrent activity; **inferred**: 3 for a non-fiscal document, after ReceiptStatus's
 *   "ALPHA_INPUT"), `lastZ`, `lastDocF`, `lastDocNF` (optyker `Get-StatusEvidence`).
 * - The others answer `<Enq>` named as asked (`m`, `i/*3` …, optyker `Read-RchValue`): `7` the
 *   closures made, `d` the date and time as `dd/MM/yyyy HH:mm:ss` (rch-driver-js `src/Driver.ts`
 *   `getCurrentDateTime`), `m` the serial, `f` the firmware, `i/*3` `111000` (registered,
 *   activated, RT mode, in service, not revoked or retired: optyker `supabase/FISCAL-CONNECTION.md`
 *   reading p.60), `i/*5` `0  0/25` (not inactive, no file pending, as the same real reading),
 *   `N` the last non-fiscal number, `S` the open document's subtotal in cents, `1` the day's sales
 *   in cents, `8` the grand total in cents (core `getLastNotFiscalDocumentNumber`,
 *   `getCurrentSubTotal`, `getCorrispettivoFiscale`, `getGrandTotal`).
 *
 * **Inferred**: the `lastZ` meaning (closures made, as `<</?7`: optyker's fixture
 * `tests/rch-pending-read.ps1` shows lastZ 1168 beside a journal document 1168-0009, which reads
 * as the open day's Z, while its own real readings put documents at the counter + 1); the number
 * formats of `7`, `N`, `S`, `1`, `8`. Any other query, and `</?…` with a single `<`, is refused with
 * 101, as a real Print!F refused `</?i/*4` (optyker FISCAL-CONNECTION.md).
 */

const two = (n: number) => String(n).padStart(2, '0');

/** The `idleState` of the printer's open document. */
export function idleState(s: PrinterState): number {
  if (!s.open) return 0;
  if (s.open.kind === 'non-fiscal') return 3;
  return s.open.payments.length > 0 ? 2 : 1;
}

export function query(p: Programming, s: PrinterState, c: NativeCommand): AnswerPart {
  const name = c.raw.slice('<</?'.length);
  if (c.verb !== '' || !c.raw.startsWith('<</?')) throw new RchRefusal(RCH_CODE.invalidCommand);
  const enq = (value: string): AnswerPart => ({ kind: 'enq', name, value });
  switch (name) {
    case 's':
      return {
        kind: 'status',
        mode: s.key,
        idleState: idleState(s),
        lastZ: s.lastZ,
        lastDocF: s.lastDoc,
        lastDocNF: s.lastNonFiscal,
      };
    case '7':
      return enq(String(s.lastZ).padStart(4, '0'));
    case 'd': {
      const t = localDateTime(p.clock.now(), p.timeZone);
      return enq(`${two(t.day)}/${two(t.month)}/${t.year} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}`);
    }
    case 'm':
      return enq(p.serial);
    case 'f':
      return enq(p.firmware);
    case 'i/*3':
      return enq('111000');
    case 'i/*5':
      return enq('0  0/25');
    case 'N':
      return enq(String(s.lastNonFiscal).padStart(4, '0'));
    case 'S':
      return enq(String(s.open ? sum(vatOf(s.open.lines)) : 0));
    case '1':
      return enq(String(s.day.sales.cents));
    case '8':
      return enq(String(s.grandTotalCents));
    default:
      throw new RchRefusal(RCH_CODE.invalidCommand);
  }
}
