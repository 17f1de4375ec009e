import { toFieldText } from '../../src/drivers-api/text.js';
import type { DocumentReference } from '../fiscal-it/reference.js';

/**
 * RCH's native commands, as the driver writes them; each names its source. The grammar: a prefix
 * (`=` an operation, `<<` a query), a verb, then fields `/<tag><value>` — `$` an amount in cents or
 * a selector, `*` a quantity, `&` a flag or a date, `[`/`]` a Z and a document number, `(`…`)` a
 * text (rch-driver-js-core `src/Core.ts`, throughout).
 */

/**
 * A text field's content: printable ASCII (accents stripped), without the grammar's `/`, `(` and
 * `)`, at most `max` characters. 20 for what a line prints beside its amount: the limit the one
 * client that ran against a real Print!F keeps (Leahcim12/optyker-web `Assert-FiscalDocument`,
 * descriptions `[A-Z0-9 .,'+\-]{1,20}`; rch-driver-js-core's programming `O`/`T` cut names at 20).
 */
export function rchText(text: string, max = 20): string {
  return toFieldText(text, 'ascii')
    .replace(/[()/]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
}

/** `=R<dept>/$<unit cents>/*<qty>/(<text>)`: a sale line (core `departmentSell`; optyker's field order). */
export function saleLine(department: number, unitCents: number, quantity: number, text: string): string {
  return `=R${department}/$${unitCents}/*${quantity}/(${rchText(text)})`;
}

/**
 * `=U/*<dept>/$<cents>/(<text>)`: a discount on what a department sold (iconic
 * gutenbergPrinter-rch `PrinterCommands.java` `printScontiByTax`).
 */
export function departmentDiscount(department: number, cents: number, text: string): string {
  return `=U/*${department}/$${cents}/(${rchText(text)})`;
}

/**
 * `=R<dept>/$<cents>/&<2|3>/(<text>)`: an amount already certified that the document takes off its
 * department — `/&2` an advance (acconto), `/&3` a single-use voucher (buono monouso): the sale
 * line's modifiers (rch-driver-js-core `departmentSell`, `SellType.ADVANCE_PAYMENT` and
 * `COUPON_SINGLE_USE`). The JavaPOS driver prints a deposit and a voucher so
 * (linokoetting/iconic.mytrade.gutenbergPrinter-rch `PrinterCommands.java` `printRecRefund` →
 * `printRecAcconto`/`printRecBMonoUso` → `newModifierCommand`, "=R2/$2000/&2/(ACCONTO)"), for
 * JavaPOS's refund line, an amount off the receipt: its own journal copy books both negative
 * (`ej/FiscalEJ.java` `printRecRefund`, `formatNegAmount`).
 */
export function deductionLine(
  kind: 'deposit' | 'single-use-voucher',
  department: number,
  cents: number,
  text: string,
): string {
  return `=R${department}/$${cents}/&${kind === 'deposit' ? 2 : 3}/(${rchText(text)})`;
}

/** `="/?C/(<code>)`: the customer's codice fiscale or partita IVA (core `printFiscalCode`; optyker). */
export const customerCodeLine = (code: string) => `="/?C/(${code})`;

/** `="/?L/$1/(<code>)`: the lottery code (core `lottery`). */
export const lotteryLine = (code: string) => `="/?L/$1/(${code})`;

/** `="/?A/(<text>)`: a line of text on the receipt (optyker's receipt marker, `Assert-FiscalDocument`). */
export const textLine = (text: string) => `="/?A/(${rchText(text, 48)})`;

/**
 * `=T<form>[/$<cents>][/(<text>)]`: a payment (core `payment`); without an amount it pays what is
 * left, and the payment that reaches the total closes the document (optyker `Emit-Receipt` finds
 * the printer idle right after it).
 */
export function payment(form: number, cents: number | undefined, text: string): string {
  return `=T${form}${cents === undefined ? '' : `/$${cents}`}/(${rchText(text)})`;
}

/** ddMMyyyy → the DDMMYY a reference carries (core `returnGoods`, luxon `ddLLyy`). */
const ddmmyy = (date: string) => `${date.slice(0, 4)}${date.slice(6, 8)}`;

/**
 * The original of a refund or void: `/&DDMMYY/[<Z>/]<number>`, then `/*1` to check only
 * (core `returnGoods`, `returnReceipt`: "onlyCheck").
 */
function reference(ref: DocumentReference, checkOnly: boolean): string {
  return `/&${ddmmyy(ref.date)}/[${ref.z}/]${ref.doc}${checkOnly ? '/*1' : ''}`;
}

/** `=r/&…`: opens a refund (reso) of the original (core `returnGoods`; rch-driver-js `printReceipt`). */
export const refundOpen = (ref: DocumentReference, checkOnly = false) => `=r${reference(ref, checkOnly)}`;

/**
 * `=k/&…[/(<serial>)]`: voids (annulla) the original at once (core `returnReceipt`; optyker sends
 * it alone and finds the printer idle after it). The serial names another RCH printer's document
 * (core: only one shaped `72xx1234567`).
 */
export function voidOf(ref: DocumentReference, ownSerial: string | undefined, checkOnly = false): string {
  const other = ref.serial !== ownSerial && /^\d{2}[A-Z]{2}\d{7}$/.test(ref.serial);
  return `=k${reference(ref, checkOnly)}${other ? `/(${ref.serial})` : ''}`;
}

/** `=a`: cancels the open document (core `cancel`, "Annullo"). */
export const CANCEL = '=a';

/** The keys (core `reg()` … `prg()`; iconic gutenbergPrinter-rch `SharedPrinterFields.java` KEY_REG …). */
export const KEY = { REG: '=C1', X: '=C2', Z: '=C3', PRG: '=C4' } as const;

/** `=C10`: the report of the key it is given in, X under `=C2`, the daily closure under `=C3` (core `xReport`/`zReport`). */
export const REPORT = '=C10';

/** `=C453/$0`: the electronic journal's last document, read without printing (core `getLastReceipt`). */
export const LAST_DOCUMENT = '=C453/$0';

/**
 * The queries (core `deviceStatus`, `getTotalZeroingNumber`, `getSerialNumber`,
 * `getFirmwareRevision`, `rtStatus`, `inactivityAndPendings`), each answered as an `<Enq>` named
 * after what follows `<</?` (optyker `Read-RchValue` matches `m`, `i/*3`), `<</?s` as `<ECRStatus>`.
 */
export const QUERY = {
  status: '<</?s',
  zCount: '<</?7',
  serial: '<</?m',
  firmware: '<</?f',
  rtState: '<</?i/*3',
  pending: '<</?i/*5',
} as const;

/** The `<Enq>` name a query is answered under. */
export const enqName = (query: string) => query.slice('<</?'.length);
