/**
 * The `errorCode` values the simulated RCH answers in `<Service><Request>`.
 *
 * Only two are sourced. `0` is success in every public client (lyancoder/fiscal-printer
 * `lib/printer/RCH/xml-RCH-http.ts` `parseResponse`: ok when `errorCode === '0'`;
 * Leahcim12/optyker-web `rch-connector/rch-optyker-connector.ps1` `Parse-Rch`). `101` is what a
 * real Print!F answered, with `lastCmd` 0, to a query it did not take (`</?i/*4`, recorded in
 * optyker-web `supabase/FISCAL-CONNECTION.md`, "errorCode=101, lastCmd=0"); the simulator gives it
 * to every command it cannot parse or does not know.
 *
 * Every other code is **inferred**: no public source lists RCH's refusal codes (the protocol
 * manual that does is behind RCH's partner login). They sit in a 9xx block that no source uses, so
 * that a test or a driver can tell an invented number from a sourced one; what matters is that
 * each is non-zero and distinct. A first real printer must report the real numbers
 * (drivers/rch-rt/README.md, "Simulator: what is sourced, what is inferred").
 */
export const RCH_CODE = {
  ok: 0,
  /** Sourced (optyker-web FISCAL-CONNECTION.md): a command the printer does not take. */
  invalidCommand: 101,
  /** Inferred: the key (REG, X, Z, PRG, SERVICE) does not allow this command. */
  wrongKey: 901,
  /** Inferred: a document is open, and the command needs the printer idle. */
  documentOpen: 902,
  /** Inferred: the command belongs inside a document and none is open. */
  noDocument: 903,
  /** Inferred: a value out of range (amount, quantity, text length, code shape). */
  invalidValue: 904,
  /** Inferred: the department is not programmed. */
  departmentUnknown: 905,
  /** Inferred: the payment form is not programmed. */
  paymentUnknown: 906,
  /** Inferred: a payment beyond the total with a form that gives no change. */
  paymentExceeds: 907,
  /** Inferred: a discount larger than what it applies to. */
  discountExceeds: 908,
  /** Inferred: a refund or void names a document the journal does not hold (date, Z, number). */
  referenceUnknown: 909,
  /** Inferred: the referenced document is already voided, or nothing is left to refund. */
  referenceSpent: 910,
  /** Inferred: a refund line beyond what is left of the original at that VAT rate. */
  refundExceeds: 911,
  /** Inferred: the reference names another printer's serial. */
  referenceOtherDevice: 912,
  /** Inferred: a Z with no document since the last one (no fiscal day open). */
  noOpenDay: 913,
  /** Inferred: a cash payment on a document carrying a lottery code. */
  lotteryNeedsElectronic: 914,
  /** Inferred: the answer's `paperEnd` flag is sourced, the code that comes with it is not. */
  paperEnd: 915,
  /** Inferred: the answer's `coverOpen` flag is sourced, the code that comes with it is not. */
  coverOpen: 916,
  /** Inferred: the answer's `printerError` flag is sourced, the code that comes with it is not. */
  printerError: 917,
  /** Inferred: another terminal's document is open (with `otherTerminalDocument.answer: 'refuse'`). */
  otherTerminal: 918,
  /** Inferred: the body is not `<Service><cmd>…</cmd></Service>`. */
  malformedRequest: 919,
  /** Inferred: a payment on a document with no sale line. */
  emptyDocument: 920,
  /** Inferred: `=c` (close) on a document not yet paid in full. */
  paymentIncomplete: 921,
  /** Inferred: the journal cannot be read back (the `journalUnreadable` switch). */
  journalUnavailable: 922,
} as const;

/** A command the simulated printer refuses: processing stops there, `lastCmd` counts the ones before. */
export class RchRefusal extends Error {
  constructor(readonly code: number) {
    super(`RCH error ${code}`);
  }
}
