import type { FiscalJobData } from '../../src/connector/model.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { fiscalNotes } from './messages.js';

/**
 * The customer's codes on a receipt ("scontrino parlante"), from the command's `TaxIdentifier`:
 *
 * - a **partita IVA** (11 digits, an `IT` prefix allowed; a company's codice fiscale has the same
 *   form) prints with `directIO command="1060" data="01<11 digits>"`;
 * - a **codice fiscale** (16 letters and digits) prints with `directIO command="1061"
 *   data="01<16 characters>"` (fiskaltrust `scu-it` `EpsonCommandFactory.cs`
 *   `AddCustomerTaxIdDirectIO` and `UnitTest/CustomerTaxIdDirectIOTests.cs`, placed after the
 *   payments);
 * - a **lottery code** (8 letters and digits) prints with `printRecLotteryID code="…"` before the
 *   payments (fiskaltrust `Models/FiscalReceipt.cs`, lyancoder/fiscal-printer `xml-http.ts`).
 *
 * Told apart by form; each checked with its check digit (the printer refuses a wrong one with
 * status 30, "CHECKSUM ERRATO": fiskaltrust `Models/ErrorInfoFactory.cs`). Our reading of the
 * platform's data: `TaxIdentifier` carries the customer's tax code, or a lottery code when it has
 * the lottery code's form; the fiscal machine's JSON settings (`FiscalMachineData`) may carry one
 * too as `LotteryCode`.
 */

export type CustomerCode = { command: '1060' | '1061'; id: string };

const ODD: Record<string, number> = {
  '0': 1,
  '1': 0,
  '2': 5,
  '3': 7,
  '4': 9,
  '5': 13,
  '6': 15,
  '7': 17,
  '8': 19,
  '9': 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};

function evenValue(c: string): number {
  return /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65;
}

/** A codice fiscale's check letter (the 16th) is right; `cf` is upper case. */
export function isValidCodiceFiscale(cf: string): boolean {
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(cf))
    return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = cf.charAt(i);
    sum += i % 2 === 0 ? (ODD[c] as number) : evenValue(c);
  }
  return String.fromCharCode(65 + (sum % 26)) === cf.charAt(15);
}

/** A partita IVA's check digit (the 11th) is right. */
export function isValidPartitaIva(piva: string): boolean {
  if (!/^\d{11}$/.test(piva) || /^0{11}$/.test(piva)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const d = Number(piva.charAt(i));
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  }
  return (10 - (sum % 10)) % 10 === Number(piva.charAt(10));
}

/** An 8-character lottery code: letters and digits. */
export function isLotteryCode(code: string): boolean {
  return /^[A-Z0-9]{8}$/.test(code);
}

function invalid(message: string, notes: Message): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes });
}

export interface CustomerCodes {
  customer?: CustomerCode;
  lottery?: string;
}

/**
 * The codes to print for a fiscal command. Rejects with COMMAND_INVALID — before anything is
 * printed — a `TaxIdentifier` that has none of the three forms or fails its check digit, and a
 * `LotteryCode` setting that is not a lottery code.
 */
export function customerCodes(
  fiscal: Pick<FiscalJobData, 'taxIdentifier' | 'machineSettings'>,
  options: { customerTaxId: boolean; lottery: boolean },
): CustomerCodes {
  const out: CustomerCodes = {};
  const raw = fiscal.taxIdentifier?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (raw) {
    const piva = raw.replace(/^IT(?=\d{11}$)/, '');
    if (/^\d{11}$/.test(piva)) {
      if (!isValidPartitaIva(piva))
        throw invalid('TaxIdentifier: partita IVA check digit', fiscalNotes.badTaxIdentifier());
      if (options.customerTaxId) out.customer = { command: '1060', id: piva };
    } else if (raw.length === 16) {
      if (!isValidCodiceFiscale(raw))
        throw invalid('TaxIdentifier: codice fiscale check letter', fiscalNotes.badTaxIdentifier());
      if (options.customerTaxId) out.customer = { command: '1061', id: raw };
    } else if (isLotteryCode(raw)) {
      if (options.lottery) out.lottery = raw;
    } else {
      throw invalid(
        'TaxIdentifier: not a codice fiscale, partita IVA or lottery code',
        fiscalNotes.badTaxIdentifier(),
      );
    }
  }
  const setting = fiscal.machineSettings.value.LotteryCode;
  if (typeof setting === 'string' && setting.trim() && options.lottery && !out.lottery) {
    const code = setting.trim().toUpperCase();
    if (!isLotteryCode(code)) throw invalid('LotteryCode: not a lottery code', fiscalNotes.badLotteryCode());
    out.lottery = code;
  }
  return out;
}
