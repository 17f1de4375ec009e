import { defineMessages } from '../../src/messages/catalogue.js';
import type { Message, MessageArg } from '../../src/messages/message.js';

/**
 * What a receptionist reads when Italian fiscal law decides: a bill line without VAT rate or
 * nature, a payment the agent cannot record, a deposit it cannot deduct, a customer code left off,
 * a refund without its original, an amount an RT cannot carry. One catalogue for every RT family
 * (`drivers/index.ts` loads it with the registry), in English and Italian. Each sentence says what
 * happened, whether anything was printed and what to do. Ids, amounts, rates and the platform's
 * field names only: never a guest's data, never the customer's code itself.
 */
const m = defineMessages('fiscal-it', {
  lotteryRefused: {
    en: 'The lottery code was not accepted by the printer; the receipt was printed without it.',
    it: 'Il codice lotteria non è stato accettato dalla stampante; lo scontrino è stato stampato senza.',
  },
  unclassifiable: {
    en: 'The bill line "{item}" has no VAT rate and no VAT nature (exempt, not subject, city tax …) the agent can tell; nothing was printed. Ask IT to set its tax code or exemption on the platform, or map it in the fiscal printer’s itemNatures.',
    it: 'La riga del conto "{item}" non ha un’aliquota IVA né una natura IVA (esente, non soggetta, imposta di soggiorno …) che l’agente riconosca; non è stato stampato nulla. Chiedere all’assistenza informatica di impostarne il codice IVA o l’esenzione sulla piattaforma, o di mapparla negli itemNatures della stampante fiscale.',
  },
  rateTie: {
    en: 'The VAT rate of the bill line "{item}" cannot be told from its amounts: {rates} fit them equally; nothing was printed. Ask IT to map the line’s tax code in the fiscal printer’s taxCodeRates.',
    it: 'L’aliquota IVA della riga del conto "{item}" non si ricava dai suoi importi: {rates} vi corrispondono allo stesso modo; non è stato stampato nulla. Chiedere all’assistenza informatica di mappare il codice IVA della riga nei taxCodeRates della stampante fiscale.',
  },
  natureWithVat: {
    en: 'The bill line "{item}" is marked {nature} (no VAT) but carries VAT; nothing was printed. Check the item’s tax on the platform.',
    it: 'La riga del conto "{item}" è indicata come {nature} (senza IVA) ma ha l’IVA; non è stato stampato nulla. Controllare l’imposta dell’articolo sulla piattaforma.',
  },
  noDepartmentNature: {
    en: 'The fiscal printer has no department for VAT nature {nature} (bill line "{item}"); nothing was printed. Ask IT to add it to the printer’s departments.',
    it: 'La stampante fiscale non ha un reparto per la natura IVA {nature} (riga del conto "{item}"); non è stato stampato nulla. Chiedere all’assistenza informatica di aggiungerlo ai reparti della stampante.',
  },
  noDepartmentRate: {
    en: 'The fiscal printer has no department for VAT {rate} % (bill line "{item}"); nothing was printed. Ask IT to add it to the printer’s departments.',
    it: 'La stampante fiscale non ha un reparto per l’IVA al {rate} % (riga del conto "{item}"); non è stato stampato nulla. Chiedere all’assistenza informatica di aggiungerlo ai reparti della stampante.',
  },
  mixedRates: {
    en: 'The bill line "{item}" mixes VAT rates, which one receipt line cannot show; nothing was printed. Split the item on the platform, then issue the receipt again.',
    it: 'La riga del conto "{item}" mescola aliquote IVA diverse, che una riga di scontrino non può mostrare; non è stato stampato nulla. Dividere l’articolo sulla piattaforma, poi emettere di nuovo lo scontrino.',
  },
  unknownPayment: {
    en: 'The bill has a payment of type {type}, which the agent does not know how to record on the fiscal printer; nothing was printed. Ask IT to map it in the fiscal printer’s payments.',
    it: 'Il conto ha un pagamento di tipo {type}, che l’agente non sa registrare sulla stampante fiscale; non è stato stampato nulla. Chiedere all’assistenza informatica di mapparlo nei payments della stampante fiscale.',
  },
  deductionRateUnknown: {
    en: 'Bill {bill} deducts {what, select, deposit {a deposit (acconto)} other {a single-use voucher}} whose VAT rate the platform does not give, and it must be deducted at the rate it was receipted at; nothing was printed. Ask IT to check the payment’s tax on the platform, then issue the receipt again.',
    it: 'Il conto {bill} detrae {what, select, deposit {un acconto} other {un buono monouso}} di cui la piattaforma non indica l’aliquota IVA, mentre va detratto all’aliquota con cui è stato certificato; non è stato stampato nulla. Chiedere all’assistenza informatica di controllare l’imposta del pagamento sulla piattaforma, poi emettere di nuovo lo scontrino.',
  },
  deductionTooLarge: {
    en: 'Bill {bill} deducts {what, select, deposit {a deposit (acconto)} other {a single-use voucher}} of {amount, number, ::.00 group-off} {currency} at VAT {rate} %, more than the receipt carries at that rate; nothing was printed. Check the bill on the platform.',
    it: 'Il conto {bill} detrae {what, select, deposit {un acconto} other {un buono monouso}} di {amount, number, ::.00 group-off} {currency} con IVA al {rate} %, più di quanto lo scontrino riporti a quell’aliquota; non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  pointsTooLarge: {
    en: 'Bill {bill} takes {amount, number, ::.00 group-off} {currency} of loyalty points off its price, more than its items at a VAT rate come to (points never lower the city tax or other lines without VAT); nothing was printed. Check the bill on the platform.',
    it: 'Il conto {bill} toglie dal prezzo {amount, number, ::.00 group-off} {currency} di punti fedeltà, più di quanto valgano i suoi articoli soggetti a IVA (i punti non riducono mai l’imposta di soggiorno né le altre righe senza IVA); non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  deductionOnRefund: {
    en: 'A refund cannot deduct a deposit or a voucher; nothing was printed. Refund the amounts paid on the platform instead.',
    it: 'Un reso non può detrarre un acconto o un buono; non è stato stampato nulla. Rimborsare invece sulla piattaforma gli importi pagati.',
  },
  badTaxIdentifier: {
    en: 'The customer’s codice fiscale or partita IVA is not valid (its check character does not match); nothing was printed. Correct it on the platform, or remove it, then issue the receipt again.',
    it: 'Il codice fiscale o la partita IVA del cliente non è valido (il carattere di controllo non corrisponde); non è stato stampato nulla. Correggerlo sulla piattaforma, o toglierlo, poi emettere di nuovo lo scontrino.',
  },
  taxIdLeftOff: {
    en: 'The customer’s codice fiscale or partita IVA is not valid (its check character does not match), so the receipt was printed without it. Correct it on the platform if the customer needs it on a receipt.',
    it: 'Il codice fiscale o la partita IVA del cliente non è valido (il carattere di controllo non corrisponde), quindi lo scontrino è stato stampato senza. Correggerlo sulla piattaforma se al cliente serve sullo scontrino.',
  },
  foreignTaxIdLeftOff: {
    en: 'The customer’s tax code is not an Italian codice fiscale or partita IVA, so the receipt was printed without it. A foreign business that needs a document for VAT needs an invoice.',
    it: 'Il codice del cliente non è un codice fiscale o una partita IVA italiani, quindi lo scontrino è stato stampato senza. Un’impresa estera che ha bisogno di un documento ai fini IVA ha bisogno di una fattura.',
  },
  noUnreferencedRefunds: {
    en: 'The refund does not name the original receipt; nothing was printed. Issue it again with the original receipt’s number, Z (closure) number and date on the platform. A refund whose original receipt cannot be known is printed only when IT turns on unreferencedRefunds (a refund marked ND, not documented).',
    it: 'Il reso non indica lo scontrino originale; non è stato stampato nulla. Emetterlo di nuovo indicando sulla piattaforma numero, numero di chiusura (Z) e data dello scontrino originale. Un reso di cui non si può conoscere lo scontrino originale si stampa solo se l’assistenza informatica attiva unreferencedRefunds (reso ND, non documentato).',
  },
  /** Words for a list of rates in `rateTie`: "VAT 4 % and 5 %". */
  ratesList: { en: 'VAT {rates} %', it: 'IVA {rates} %' },
});

/**
 * Why the fiscal core refuses a bill before anything reaches a printer: a refund's reference to
 * the original receipt, the bill's amounts and their signs, its currency.
 */
const r = defineMessages('fiscal-it.refusal', {
  referenceZ: {
    en: 'The refund does not carry a valid Z number (RebatedReceiptSequence) of the original receipt; nothing was printed. Check the original receipt on the platform and issue the refund again.',
    it: 'Il reso non riporta un numero di chiusura Z (RebatedReceiptSequence) valido dello scontrino originale; non è stato stampato nulla. Controllare lo scontrino originale sulla piattaforma ed emettere di nuovo il reso.',
  },
  referenceNumber: {
    en: 'The refund does not carry a valid receipt number (RebatedReceiptNumber) of the original receipt; nothing was printed. Check the original receipt on the platform and issue the refund again.',
    it: 'Il reso non riporta un numero di scontrino (RebatedReceiptNumber) valido dello scontrino originale; non è stato stampato nulla. Controllare lo scontrino originale sulla piattaforma ed emettere di nuovo il reso.',
  },
  referenceDate: {
    en: 'The refund does not say when the original receipt was printed; nothing was printed. Check the original receipt on the platform and issue the refund again.',
    it: 'Il reso non indica quando è stato stampato lo scontrino originale; non è stato stampato nulla. Controllare lo scontrino originale sulla piattaforma ed emettere di nuovo il reso.',
  },
  referenceSerial: {
    en: 'The refund does not say which fiscal printer printed the original receipt, and this printer’s serial is not known yet; nothing was printed.',
    it: 'Il reso non indica quale stampante fiscale ha stampato lo scontrino originale, e la matricola di questa stampante non è ancora nota; non è stato stampato nulla.',
  },
  amountOutOfRange: {
    en: 'The amount of {what, select, item {the item "{name}"} payment {the payment {name}} other {a line}} ({shown}) is not one the fiscal printer can print (at most 9,999,999.99); nothing was printed. Check the bill on the platform.',
    it: 'L’importo {what, select, item {dell’articolo "{name}"} payment {del pagamento {name}} other {di una riga}} ({shown}) non può essere stampato dalla stampante fiscale (al massimo 9.999.999,99); non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  mixedSigns: {
    en: 'The bill’s {what, select, payments {payments mix} other {refunded items mix}} charges and refunds, which one receipt cannot show; nothing was printed. Ask IT to check the bill.',
    it: '{what, select, payments {I pagamenti} other {Gli articoli resi}} del conto mescolano addebiti e rimborsi, che uno scontrino non può mostrare; non è stato stampato nulla. Chiedere all’assistenza informatica di controllare il conto.',
  },
  otherCurrency: {
    en: 'The bill has amounts in {currency}; the fiscal printer only prints {expected}. Nothing was printed.',
    it: 'Il conto ha importi in {currency}; la stampante fiscale stampa solo in {expected}. Non è stato stampato nulla.',
  },
  badQuantity: {
    en: 'The bill line "{item}" has a quantity ({quantity}) the fiscal printer cannot print; nothing was printed. Check the bill on the platform.',
    it: 'La riga del conto "{item}" ha una quantità ({quantity}) che la stampante fiscale non può stampare; non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  nothingToPrint: {
    en: 'The bill has no items to put on a receipt; nothing was printed. Check the bill on the platform.',
    it: 'Il conto non ha articoli da mettere sullo scontrino; non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  totalTooLarge: {
    en: 'The bill’s total ({total, number, ::.00 group-off} {currency}) is more than the fiscal printer can print on one receipt; nothing was printed. Check the bill on the platform.',
    it: 'Il totale del conto ({total, number, ::.00 group-off} {currency}) supera quanto la stampante fiscale può stampare su un solo scontrino; non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  paymentsDiffer: {
    en: 'The bill’s payments ({billPaid, number, ::.00 group-off} {currency}) and the payments recorded on the platform ({recorded, number, ::.00 group-off} {currency}) differ; nothing was printed. Check the bill on the platform.',
    it: 'I pagamenti del conto ({billPaid, number, ::.00 group-off} {currency}) e quelli registrati sulla piattaforma ({recorded, number, ::.00 group-off} {currency}) non coincidono; non è stato stampato nulla. Controllare il conto sulla piattaforma.',
  },
  itemsAndPaymentsDiffer: {
    en: 'The bill’s items ({total, number, ::.00 group-off} {currency}) and payments ({paid, number, ::.00 group-off} {currency}) do not match; nothing was printed. Settle the bill on the platform, then issue the receipt again.',
    it: 'Gli articoli del conto ({total, number, ::.00 group-off} {currency}) e i pagamenti ({paid, number, ::.00 group-off} {currency}) non coincidono; non è stato stampato nulla. Saldare il conto sulla piattaforma, poi emettere di nuovo lo scontrino.',
  },
});

export const fiscalRefusals = r;

/** The sentences above, with the arguments each call site has. */
export const lawNotes = {
  unclassifiable: (item: string) => m.unclassifiable({ item }),
  rateTie: (item: string, rates: readonly number[]) =>
    m.rateTie({ item, rates: m.ratesList({ rates: { list: rates.map(String) } }) }),
  natureWithVat: (item: string, nature: string) => m.natureWithVat({ item, nature }),
  noDepartmentNature: (item: string, nature: string) => m.noDepartmentNature({ item, nature }),
  noDepartmentRate: (item: string, rate: number) => m.noDepartmentRate({ item, rate }),
  mixedRates: (item: string) => m.mixedRates({ item }),
  unknownPayment: (type: string) => m.unknownPayment({ type }),
  deductionRateUnknown: (bill: string, what: 'deposit' | 'voucher') => m.deductionRateUnknown({ bill, what }),
  deductionTooLarge: (
    bill: string,
    what: 'deposit' | 'voucher',
    cents: number,
    currency: string,
    rate: MessageArg,
  ): Message => m.deductionTooLarge({ bill, what, amount: cents / 100, currency, rate }),
  pointsTooLarge: (bill: string, cents: number, currency: string) =>
    m.pointsTooLarge({ bill, amount: cents / 100, currency }),
  deductionOnRefund: () => m.deductionOnRefund(),
  badTaxIdentifier: () => m.badTaxIdentifier(),
  taxIdLeftOff: () => m.taxIdLeftOff(),
  foreignTaxIdLeftOff: () => m.foreignTaxIdLeftOff(),
  noUnreferencedRefunds: () => m.noUnreferencedRefunds(),
  /** A wrong lottery check character (Epson status 30): printed without the code (lottery.ts). */
  lotteryRefused: () => m.lotteryRefused(),
};

/** What an amount belongs to, for `amountOutOfRange`: a bill line, a payment, or neither. */
export type AmountOwner = { kind: 'item' | 'payment'; name: string } | { kind: 'line' };

export function amountOutOfRange(owner: AmountOwner, shown: string): Message {
  return r.amountOutOfRange({ what: owner.kind, name: owner.kind === 'line' ? '' : owner.name, shown });
}

/** The owner of an amount in English, for the log's message. */
export function ownerForLog(owner: AmountOwner): string {
  return owner.kind === 'item'
    ? `the item "${owner.name}"`
    : owner.kind === 'payment'
      ? `the payment ${owner.name}`
      : 'an amount';
}
