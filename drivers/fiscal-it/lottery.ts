import type { FiscalBill } from '../../src/connector/model.js';
import { ELECTRONIC_KINDS, type PaymentKind } from './payments.js';

/**
 * The lottery code (lotteria degli scontrini) on a sale, as the law sets it:
 *
 * - it is the **consumer's** own, given for this purchase: L. 232/2016 art. 1 c. 540 (adult
 *   residents buying "outside the exercise of a business, art or profession"), so it comes only
 *   from the bill's customer data — the owner's `LegalIdentifiers.ItLotteryCode` — never from a
 *   machine-wide setting (`FiscalMachineData`) and never guessed from `TaxIdentifier`;
 * - **only when paid wholly by electronic means**: c. 540 ("exclusively with electronic payment
 *   instruments"); the lottery portal's FAQ answers "part cash, part cashless?" with no
 *   (lotteriadegliscontrini.gov.it FAQ); a deposit deducted counts as paid by its own means;
 * - **never with an OTA's online prepayment**: online purchases are excluded — the lottery
 *   portal's FAQ (lotteriadegliscontrini.gov.it: "Non saranno validi ai fini della lotteria gli
 *   scontrini corrispondenti ad acquisti effettuati online", as InfoOggi's "Lotteria degli
 *   scontrini … Faq" reproduces it) — and a receipt takes part only "nei limiti di quanto pagato
 *   contestualmente" (ADM determination of 5 March 2020, prot. 80217/RU, made with the AdE, as
 *   mysolution.it reports it on 6 March 2020): what the guest paid the OTA online was not paid at
 *   the desk with the receipt, so a receipt carrying one gets no code;
 * - **never with a codice fiscale or partita IVA** on the receipt: the RT stores one of the two
 *   codes the customer gives (AdE, "Chi può partecipare"), and a partita IVA is a business
 *   purchase, which c. 540 excludes; nor for a bill issued to a company;
 * - a purchase of at least €1 (one virtual ticket per euro, lottery portal FAQ);
 * - on sales only (fiskaltrust `scu-it` sends it on sales only); a refund or void carries the
 *   original's code only where its protocol has the field (Custom `codLottery`, XML protocol
 *   manual rev 2.00 pp.36, 38) and the original carried one (`consumerLottery`);
 * - 8 letters and digits (the code the lottery portal generates); its check character is the
 *   printer's to verify (Epson status 30; the algorithm is not public): a code the printer refuses
 *   is left off and the receipt printed without it, the Notes saying so (the kit's
 *   `sendDocument` fallback, after the witnesses prove the first attempt unprinted).
 *
 * Whenever one of these fails the code is left off and the receipt prints: the reason goes to
 * the log, never a failed receipt (a refused sale would cost the guest the receipt, not the
 * lottery ticket).
 */

export interface LotteryInput {
  buyer: FiscalBill['buyer'];
  /** A codice fiscale or partita IVA printed on this receipt. */
  hasCustomerCode: boolean;
  /** The kinds of the receipt's payments. */
  paymentKinds: readonly PaymentKind[];
  /** Every deduction (deposit, voucher) was itself paid by electronic means. */
  deductionsElectronic: boolean;
  totalCents: number;
}

/** The lottery code to print, or why none is printed (one English sentence for the log). */
export type LotteryDecision = { code: string } | { leftOff: string } | { none: true };

/**
 * The consumer's code for a refund or void (`originalLottery`): the bill's own, normalised, when
 * the option is on and the bill is a consumer's; undefined otherwise. Whether the original carried
 * it is the family's to know (only a code the original printed is sent with its refund or void).
 */
export function consumerLottery(buyer: FiscalBill['buyer'], enabled: boolean): string | undefined {
  const raw = buyer?.lotteryCode?.replace(/\s+/g, '').toUpperCase();
  if (!raw || !enabled || buyer?.kind !== 'customer' || !/^[A-Z0-9]{8}$/.test(raw)) return undefined;
  return raw;
}

export function lotteryCode(input: LotteryInput, enabled: boolean): LotteryDecision {
  const raw = input.buyer?.lotteryCode?.replace(/\s+/g, '').toUpperCase();
  if (!raw) return { none: true };
  const off = (why: string): LotteryDecision => ({ leftOff: `lottery code left off: ${why}` });
  if (!enabled) return off('the lottery option is off');
  if (input.buyer?.kind !== 'customer') return off('the bill is issued to a company');
  if (!/^[A-Z0-9]{8}$/.test(raw)) return off('it is not 8 letters and digits');
  if (input.hasCustomerCode) return off('the receipt carries the customer’s codice fiscale or partita IVA');
  if (input.totalCents < 100) return off('the receipt is under 1 euro');
  if (input.paymentKinds.includes('prepaid-online'))
    return off('an OTA collected part of it online, and online purchases take no part in the lottery');
  const paidElectronically =
    input.paymentKinds.length > 0 &&
    input.paymentKinds.every((kind) => ELECTRONIC_KINDS.has(kind)) &&
    input.deductionsElectronic;
  if (!paidElectronically) return off('the receipt is not paid wholly by electronic means');
  return { code: raw };
}
