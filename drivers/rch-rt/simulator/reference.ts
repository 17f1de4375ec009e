import { RCH_CODE, RchRefusal } from './codes.js';
import { digits, field, type NativeCommand } from './grammar.js';
import { fileDocument } from './journal.js';
import { addInto, type PrinterState, type Programming, printedDate, requireIdle, sum } from './state.js';
import type { RchDocument, RchReference } from './types.js';

/**
 * Refunds and voids by reference of an earlier document: `=r/&DDMMYY/[Z/]N` opens a refund (reso
 * merce), `=k/&DDMMYY/[Z/]N` voids (annullo) the document of that date, Z and number
 * (rch-driver-js-core `src/Core.ts` `returnGoods`, `returnReceipt`; optyker-web
 * `supabase/FISCAL-EMISSION.md` "=k/&ddmmyy/[chiusura/]progressivo (protocollo v14 p.24)").
 * `/*1` only checks whether it can be done, `/*2` checks and opens when it can ("IF onlyCheck is
 * false it triggers autoopen if check is ok", core `returnGoods`); `=k` may name the original
 * printer's serial `/(…)` (core `returnReceipt`).
 *
 * A void needs no more commands: optyker sends `=k` alone and then finds the printer idle
 * (`tests/rch-emission.test.ps1`, "Void should acknowledge exactly one command"), so `=k` prints
 * the whole void at once, giving back the original's total. A refund is a document of its own:
 * rch-driver-js `src/Driver.ts` `printReceipt` follows `=r` with the returned lines (`=R…`) and a
 * payment (`=T1`) that closes it.
 *
 * **Inferred**: the answer to a check (errorCode 0 when it can be done, the refusal's code when
 * not: iconic gutenbergPrinter-rch `RefundCommands.java` only shows its JavaPOS layer answering 1);
 * the refusals themselves (unknown document, already voided, nothing left to refund, another
 * printer's serial); a void refused after any refund of the same document.
 */

function parseReference(c: NativeCommand): RchReference {
  const date = field(c, '&');
  const z = digits(field(c, '['));
  const number = digits(field(c, ']'));
  if (date === undefined || !/^\d{6}$/.test(date) || z === undefined || number === undefined) {
    throw new RchRefusal(RCH_CODE.invalidValue);
  }
  const serial = field(c, '(')?.replace(/ /g, '');
  return { date, z, number, ...(serial ? { serial } : {}) };
}

/** The sale the reference names, checked for a refund or a void; refuses as the printer would. */
function original(p: Programming, s: PrinterState, ref: RchReference, kind: 'refund' | 'void'): RchDocument {
  if (ref.serial !== undefined && ref.serial !== p.serial) {
    throw new RchRefusal(RCH_CODE.referenceOtherDevice);
  }
  const doc = s.documents.find(
    (d) =>
      d.kind === 'sale' &&
      d.z === ref.z &&
      d.number === ref.number &&
      printedDate(p, d.at).ddmmyy === ref.date,
  );
  if (!doc) throw new RchRefusal(RCH_CODE.referenceUnknown);
  if (doc.voided) throw new RchRefusal(RCH_CODE.referenceSpent);
  if (kind === 'void' && sum(doc.refunded) > 0) throw new RchRefusal(RCH_CODE.referenceSpent);
  if (kind === 'refund' && sum(doc.refunded) >= doc.totalCents) throw new RchRefusal(RCH_CODE.referenceSpent);
  return doc;
}

/**
 * The reference a `=r`/`=k` names, checked: the sale it gives back, or undefined when the command
 * only checks (`/*1`) and the check passed.
 */
function checked(
  p: Programming,
  s: PrinterState,
  c: NativeCommand,
  kind: 'refund' | 'void',
): { ref: RchReference; doc: RchDocument } | undefined {
  const ref = parseReference(c);
  const flag = field(c, '*');
  if (flag !== undefined && flag !== '1' && flag !== '2') throw new RchRefusal(RCH_CODE.invalidValue);
  requireIdle(s);
  const doc = original(p, s, ref, kind);
  return flag === '1' ? undefined : { ref, doc };
}

/** `=r…`: checks, or opens a refund document for the named sale. */
export function refund(p: Programming, s: PrinterState, c: NativeCommand): void {
  const target = checked(p, s, c, 'refund');
  if (!target) return;
  s.open = {
    kind: 'refund',
    terminal: 'web-service',
    lines: [],
    payments: [],
    atSubtotal: false,
    reference: target.ref,
    original: target.doc,
  };
}

/** `=k…`: checks, or prints the void of the named sale at once. */
export function voidDocument(p: Programming, s: PrinterState, c: NativeCommand): void {
  const target = checked(p, s, c, 'void');
  if (!target) return;
  const { ref, doc } = target;
  doc.voided = true;
  s.day.voids.count += 1;
  s.day.voids.cents += doc.totalCents;
  const vat: Record<number, number> = {};
  addInto(vat, doc.vat);
  fileDocument(p, s, {
    kind: 'void',
    terminal: 'web-service',
    lines: doc.lines.map((line) => ({ ...line, vat: { ...line.vat } })),
    payments: [],
    totalCents: doc.totalCents,
    changeCents: 0,
    vat,
    reference: ref,
    voided: false,
    refunded: {},
  });
}
