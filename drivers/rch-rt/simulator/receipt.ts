import { RCH_CODE, RchRefusal } from './codes.js';
import { digits, field, type NativeCommand } from './grammar.js';
import { fileDocument } from './journal.js';
import {
  addInto,
  type OpenDocument,
  openDocument,
  type PrinterState,
  type Programming,
  sum,
  vatOf,
} from './state.js';
import type { RchLine } from './types.js';

/**
 * A sale as the native commands build it, one command at a time (optyker-web
 * `rch-connector/rch-optyker-connector.ps1` sends each in its own request and reads `lastCmd` 1):
 * `=R<dept>/$<unit cents>/*<qty>/(<text>)` sells (the first opens the document), `="…` prints a
 * text, the customer's code or the lottery code, `=%`/`=V`/`=U` adjust, `=S` marks the subtotal,
 * `=s` voids the last line, `=T<form>` pays, and the payment that reaches the total closes and
 * prints the document: optyker checks the printer idle (`idleState` 0) right after `=T`
 * (`Emit-Receipt`), and pays in two forms with `=T1/$<cents>/(CONTANTI)` then `=T4/$<cents>/(CARTA)`
 * (`Aggiorna-RCH-POS.ps1`). `=c` and `=x` (close, terminate: rch-driver-js `src/Driver.ts`
 * `printReceipt` sends them after the payments) then find nothing open and do nothing.
 */

const MAX_TEXT = 48;
const MAX_CENTS = 99_999_999;

function text(value: string | undefined, fallback: string): string {
  const t = value ?? fallback;
  if (t.length > MAX_TEXT) throw new RchRefusal(RCH_CODE.invalidValue);
  return t;
}

function startSale(s: PrinterState): OpenDocument {
  s.open = { kind: 'sale', terminal: 'web-service', lines: [], payments: [], atSubtotal: false };
  return s.open;
}

/** The open sale or refund; a non-fiscal document open refuses. */
function fiscalDocument(s: PrinterState): OpenDocument {
  const doc = openDocument(s);
  if (doc.kind === 'non-fiscal') throw new RchRefusal(RCH_CODE.documentOpen);
  return doc;
}

/**
 * `=R<dept>…`: a sale line (rch-driver-js-core `departmentSell`; `/&1` free, `/&2` advance, `/&3`
 * single-use voucher, as iconic gutenbergPrinter-rch `PrinterCommands.java` newModifierCommand
 * comments "=R2/$2000/&1/(OMAGGIO)"). An advance (acconto) and a voucher (buono monouso) take
 * their amount off the document: the JavaPOS driver sends them for JavaPOS's `printRecRefund`, a
 * line that lowers the receipt (`PrinterCommands.java` `printRecRefund` → `printRecAcconto`,
 * `printRecBMonoUso`), and its own journal copy books them negative (`ej/FiscalEJ.java`
 * `printRecRefund`, `formatNegAmount`). **Inferred**: a free line books nothing; an advance or a
 * voucher larger than what its department's VAT slot sold so far is refused, and one cannot open
 * a document; a refund's line must fit what is left of the original at its VAT rate.
 */
export function sell(p: Programming, s: PrinterState, c: NativeCommand): void {
  const dept = digits(c.verb.slice(1));
  const department = dept === undefined ? undefined : p.departments[dept];
  if (dept === undefined || !department) throw new RchRefusal(RCH_CODE.departmentUnknown);
  const unit = digits(field(c, '$'));
  const quantity = field(c, '*') === undefined ? 1 : digits(field(c, '*'));
  const type = field(c, '&') ?? '0';
  if (unit === undefined || quantity === undefined || quantity < 1 || quantity > 9999) {
    throw new RchRefusal(RCH_CODE.invalidValue);
  }
  const kinds: Record<string, RchLine['kind']> = { '0': 'sale', '1': 'free', '2': 'advance', '3': 'voucher' };
  const kind = kinds[type];
  const price = unit * quantity;
  if (!kind || price > MAX_CENTS) throw new RchRefusal(RCH_CODE.invalidValue);
  const description = text(field(c, '('), department.description);
  const deducts = kind === 'advance' || kind === 'voucher';
  if (deducts && !s.open) throw new RchRefusal(RCH_CODE.emptyDocument);
  const doc = s.open ? fiscalDocument(s) : startSale(s);
  if (deducts && price > (vatOf(doc.lines)[department.vat] ?? 0)) {
    throw new RchRefusal(RCH_CODE.discountExceeds);
  }
  const booked = kind === 'free' ? 0 : deducts ? -price : price;
  if (doc.kind === 'refund' && doc.original) {
    const left = (doc.original.vat[department.vat] ?? 0) - (doc.original.refunded[department.vat] ?? 0);
    const here = vatOf(doc.lines)[department.vat] ?? 0;
    if (here + booked > left) throw new RchRefusal(RCH_CODE.refundExceeds);
  }
  doc.lines.push({
    kind,
    description,
    department: dept,
    quantity,
    unitPriceCents: unit,
    amountCents: booked,
    vat: booked === 0 ? {} : { [department.vat]: booked },
  });
  doc.atSubtotal = false;
}

/**
 * `="…`: a printed line. `/?C/(…)` the customer's codice fiscale or partita IVA (core
 * `printFiscalCode`; optyker sends it before the payment), `/?L/$1/(…)` the lottery code (core
 * `lottery`), `/$<1-11>/(…)` a barcode or QR code (core `printBarCode`), otherwise a text
 * (`/?A/(…)`, core `printRow`; optyker's receipt marker). A refund carries a lottery code too:
 * rch-driver-js `src/Driver.ts` `printReceipt` sends a return's code after its lines, and the
 * JavaPOS driver sends it as it closes a refund (iconic gutenbergPrinter-rch `PrinterCommands.java`
 * `printRecTotal`, `isRefundTrx` → `SendLotteryCode`). **Inferred**: the code shapes checked (16
 * letters and digits or 11 digits; 8 letters and digits), a text opening a sale when none is open
 * (rch-driver-js prints its "before" texts first), codes needing an open sale (a lottery code: or
 * refund), a customer's code refused on a refund (no source shows one there).
 */
export function printLine(s: PrinterState, c: NativeCommand): void {
  const sub = field(c, '?');
  const value = field(c, '(');
  if (sub === 'C' || sub === 'L') {
    const doc = fiscalDocument(s);
    const code = (value ?? '').toUpperCase();
    const ok = sub === 'C' ? /^([A-Z0-9]{16}|\d{11})$/.test(code) : /^[A-Z0-9]{8}$/.test(code);
    const carries = doc.kind === 'sale' || (sub === 'L' && doc.kind === 'refund');
    if (!ok || !carries) throw new RchRefusal(RCH_CODE.invalidValue);
    if (sub === 'C') doc.customerId = code;
    else doc.lottery = code;
    return;
  }
  if (sub !== undefined && sub !== 'A') throw new RchRefusal(RCH_CODE.invalidCommand);
  const barcode = field(c, '$');
  if (barcode !== undefined && !(Number(barcode) >= 1 && Number(barcode) <= 11)) {
    throw new RchRefusal(RCH_CODE.invalidValue);
  }
  const line = text(value, '');
  const doc = s.open ?? startSale(s);
  doc.lines.push({ kind: barcode ? 'barcode' : 'text', description: line, amountCents: 0, vat: {} });
}

/** Splits `amount` over the slots of `base` in proportion, the rounding left on the last slot. */
function spread(base: Readonly<Record<number, number>>, amount: number): Record<number, number> {
  const total = sum(base);
  const slots = Object.keys(base).map(Number);
  const out: Record<number, number> = {};
  let left = amount;
  slots.forEach((slot, i) => {
    const share = i === slots.length - 1 ? left : Math.round((amount * (base[slot] ?? 0)) / total);
    out[slot] = share;
    left -= share;
  });
  return out;
}

/**
 * `=%-/*<pct>`, `=%+`, `=%`, `=V-/*<cents>`, `=V+`, `=V`: a discount or increase on the last line,
 * or on the subtotal right after `=S` (core `discountPercentage`, `discountValue`,
 * `increase…`; optyker's zero receipt `=S` then `=%/*100`; gutenbergPrinter-rch `=S` then
 * `=V/*<cents>`, unsigned meaning a discount). `=U/*<dept>/$<cents>` discounts a department's
 * share (gutenbergPrinter-rch printScontiByTax). **Inferred**: a subtotal adjustment spread over
 * the VAT rates in proportion; a discount larger than its base refused.
 */
export function adjust(s: PrinterState, c: NativeCommand, p: Programming): void {
  const doc = fiscalDocument(s);
  const sign = c.verb.endsWith('+') ? 1 : -1;
  let base: Record<number, number>;
  let amount: number | undefined;
  if (c.verb === 'U') {
    const dept = digits(field(c, '*'));
    const slot = dept === undefined ? undefined : p.departments[dept]?.vat;
    if (slot === undefined) throw new RchRefusal(RCH_CODE.departmentUnknown);
    base = { [slot]: vatOf(doc.lines)[slot] ?? 0 };
    amount = digits(field(c, '$'));
  } else {
    const last = [...doc.lines].reverse().find((l) => l.kind !== 'text' && l.kind !== 'barcode');
    base = doc.atSubtotal ? vatOf(doc.lines) : { ...(last?.vat ?? {}) };
    const value = field(c, '*');
    if (c.verb.startsWith('%')) {
      const pct = value !== undefined && /^\d{1,3}(\.\d{1,2})?$/.test(value) ? Number(value) : undefined;
      amount = pct === undefined ? undefined : Math.round((sum(base) * pct) / 100);
    } else {
      amount = digits(value);
    }
  }
  if (amount === undefined || sum(base) <= 0) throw new RchRefusal(RCH_CODE.invalidValue);
  if (sign < 0 && amount > sum(base)) throw new RchRefusal(RCH_CODE.discountExceeds);
  const vat = spread(base, sign * amount);
  const label = sign < 0 ? 'SCONTO' : 'MAGGIORAZIONE';
  doc.lines.push({
    kind: sign < 0 ? 'discount' : 'increase',
    description: text(field(c, '('), doc.atSubtotal ? `${label} SUBTOTALE` : label),
    amountCents: sign * amount,
    vat,
  });
  doc.atSubtotal = false;
}

/** `=S`: subtotal (core `subtotal`); the next adjustment applies to it. */
export function subtotal(s: PrinterState): void {
  fiscalDocument(s).atSubtotal = true;
}

/** `=s`: voids the last sale line (core `transfer`, "storno"). **Inferred**: refused when there is none. */
export function voidLastLine(s: PrinterState): void {
  const doc = fiscalDocument(s);
  const last = [...doc.lines].reverse().find((l) => l.amountCents > 0 && l.department !== undefined);
  if (!last) throw new RchRefusal(RCH_CODE.noDocument);
  const vat: Record<number, number> = {};
  addInto(vat, last.vat, -1);
  doc.lines.push({
    kind: 'line-void',
    description: `STORNO ${last.description}`,
    amountCents: -last.amountCents,
    vat,
  });
}

/**
 * `=T<form>[/$<cents>][/(<text>)]`: a payment (core `payment`); without an amount it pays what is
 * left. The one that reaches the total closes and prints the document. Change comes only from a
 * cash form (optyker `rch-preflight.js`: only Contanti allows change). **Inferred**: an
 * overpayment in another form refused, a payment on a document with no sale line refused, a cash
 * payment refused on a sale carrying a lottery code (the lottery takes electronic payments only:
 * Agenzia delle Entrate, lotteria degli scontrini) — not on a refund, which the JavaPOS driver
 * closes with its change form after sending the code (gutenbergPrinter-rch `printRecTotal`).
 */
export function pay(p: Programming, s: PrinterState, c: NativeCommand): void {
  const doc = fiscalDocument(s);
  const formNumber = digits(c.verb.slice(1));
  const form = formNumber === undefined ? undefined : p.payments[formNumber];
  if (formNumber === undefined || !form) throw new RchRefusal(RCH_CODE.paymentUnknown);
  if (!doc.lines.some((l) => l.department !== undefined)) throw new RchRefusal(RCH_CODE.emptyDocument);
  if (doc.lottery && doc.kind === 'sale' && form.kind === 'cash')
    throw new RchRefusal(RCH_CODE.lotteryNeedsElectronic);
  const total = sum(vatOf(doc.lines));
  const paid = doc.payments.reduce((a, x) => a + x.amountCents, 0);
  const remaining = Math.max(0, total - paid);
  const given = field(c, '$');
  const amount = given === undefined ? remaining : digits(given);
  if (amount === undefined) throw new RchRefusal(RCH_CODE.invalidValue);
  if (amount > remaining && form.kind !== 'cash') throw new RchRefusal(RCH_CODE.paymentExceeds);
  doc.payments.push({
    form: formNumber,
    description: text(field(c, '('), form.description),
    kind: form.kind,
    amountCents: amount,
  });
  if (paid + amount >= total) close(p, s, doc, paid + amount - total);
}

function close(p: Programming, s: PrinterState, doc: OpenDocument, changeCents: number): void {
  const vat = vatOf(doc.lines);
  const totalCents = sum(vat);
  const kind = doc.kind === 'refund' ? 'refund' : 'sale';
  const day = s.day;
  if (kind === 'sale') {
    day.sales.count += 1;
    day.sales.cents += totalCents;
    addInto(day.vatSales, vat);
    s.grandTotalCents += totalCents;
  } else {
    day.refunds.count += 1;
    day.refunds.cents += totalCents;
    if (doc.original) addInto(doc.original.refunded, vat);
  }
  for (const pay of doc.payments) addInto(day.payments, { [pay.form]: pay.amountCents });
  s.open = undefined;
  fileDocument(p, s, {
    kind,
    terminal: doc.terminal,
    lines: doc.lines,
    payments: doc.payments,
    totalCents,
    changeCents,
    vat,
    ...(doc.customerId ? { customerId: doc.customerId } : {}),
    ...(doc.lottery ? { lottery: doc.lottery } : {}),
    ...(doc.reference ? { reference: doc.reference } : {}),
    voided: false,
    refunded: {},
  });
}

/** `=a`: cancels the open document (core `cancel`); nothing is numbered or printed. */
export function cancelOpen(p: Programming, s: PrinterState): void {
  const doc = openDocument(s);
  s.open = undefined;
  fileDocument(p, s, {
    kind: 'cancelled',
    terminal: doc.terminal,
    lines: doc.lines,
    payments: doc.payments,
    totalCents: sum(vatOf(doc.lines)),
    changeCents: 0,
    vat: {},
    voided: false,
    refunded: {},
  });
}

/**
 * `=o`: opens a non-fiscal document, and closes it the second time (core `openNonFiscalReceipt`,
 * `closeNonFiscalReceipt`); its lines are `="/(…)`. `=c` closes one too, and is a no-op when
 * nothing is open. **Inferred**: `=c` on an unpaid sale refused.
 */
export function nonFiscal(p: Programming, s: PrinterState, verb: 'o' | 'c'): void {
  const doc = s.open;
  if (!doc) {
    if (verb === 'o')
      s.open = { kind: 'non-fiscal', terminal: 'web-service', lines: [], payments: [], atSubtotal: false };
    return;
  }
  if (doc.kind !== 'non-fiscal') {
    throw new RchRefusal(verb === 'o' ? RCH_CODE.documentOpen : RCH_CODE.paymentIncomplete);
  }
  s.open = undefined;
  fileDocument(p, s, {
    kind: 'non-fiscal',
    terminal: doc.terminal,
    lines: doc.lines,
    payments: [],
    totalCents: 0,
    changeCents: 0,
    vat: {},
    voided: false,
    refunded: {},
  });
}
