import { defineMessages } from '../../src/messages/catalogue.js';
import type { Message } from '../../src/messages/message.js';

/**
 * Why the driver refuses a command before anything reaches the printer — the address it would
 * send to, the platform's ready-made document, a refund's reference to the original receipt, the
 * bill's amounts — as catalogue entries in English and Italian. Each says that nothing was printed
 * and who can fix it. Ids, amounts and the platform's field names only: never a guest's data.
 */
export const epsonRefusals = defineMessages('epson.refusal', {
  notFiscalCommand: {
    en: 'This command is not for a fiscal printer; nothing was printed.',
    it: 'Questo comando non è per una stampante fiscale; non è stato stampato nulla.',
  },
  noApiUrl: {
    en: 'The command does not say where the fiscal printer is, and the agent is set to take that from the platform; nothing was printed. Ask IT to set the printer’s address in the agent’s configuration.',
    it: 'Il comando non indica dove si trova la stampante fiscale, e l’agente è impostato per riceverlo dalla piattaforma; non è stato stampato nulla. Chiedere all’assistenza informatica di impostare l’indirizzo della stampante nella configurazione dell’agente.',
  },
  addressRefused: {
    en: 'The platform named {what} as the fiscal printer; nothing was sent there and nothing was printed. Ask IT to check the printer’s address on the platform and the agent’s allowedHosts.',
    it: 'La piattaforma ha indicato come stampante fiscale {what}; non è stato inviato nulla a quell’indirizzo e non è stato stampato nulla. Chiedere all’assistenza informatica di verificare l’indirizzo della stampante sulla piattaforma e gli allowedHosts dell’agente.',
  },
  addressNotUrl: { en: 'an address that is not a URL', it: 'un indirizzo che non è un URL' },
  addressNotHttp: { en: 'an address that is not http(s)', it: 'un indirizzo che non è http(s)' },
  hostNotAllowed: {
    en: 'the host {host}, which is not allowed',
    it: 'l’host {host}, che non è tra quelli consentiti',
  },
  printerAddressInvalid: {
    en: 'The fiscal printer’s address is not valid; nothing was printed. Ask IT to set the printer address.',
    it: 'L’indirizzo della stampante fiscale non è valido; non è stato stampato nulla. Chiedere all’assistenza informatica di impostarlo.',
  },
  printerAddressNotHttp: {
    en: 'The fiscal printer’s address is not an http(s) address; nothing was printed. Ask IT to set it.',
    it: 'L’indirizzo della stampante fiscale non è un indirizzo http(s); non è stato stampato nulla. Chiedere all’assistenza informatica di impostarlo.',
  },
  addressUnknown: {
    en: 'The agent learns this fiscal printer’s address from the first fiscal command; until then it cannot reach it.',
    it: 'L’agente ricava l’indirizzo di questa stampante fiscale dal primo comando fiscale; fino ad allora non può raggiungerla.',
  },
  notAnswering: {
    en: 'The fiscal printer does not answer; check that it is switched on and connected.',
    it: 'La stampante fiscale non risponde; verificare che sia accesa e collegata.',
  },

  payloadRefused: {
    en: 'The platform sent a fiscal document the agent does not pass to the printer ({why}); nothing was printed. Ask IT to check how the platform builds fiscal payloads.',
    it: 'La piattaforma ha inviato un documento fiscale che l’agente non passa alla stampante ({why}); non è stato stampato nulla. Chiedere all’assistenza informatica di verificare come la piattaforma compone i documenti fiscali.',
  },
  payloadTooLarge: { en: 'it is larger than any receipt', it: 'è più grande di qualsiasi scontrino' },
  payloadNotBase64: { en: 'it is not valid Base64', it: 'non è Base64 valido' },
  payloadNotText: { en: 'it is not text', it: 'non è testo' },
  payloadDtd: {
    en: 'it carries a DTD or a processing instruction',
    it: 'contiene una DTD o un’istruzione di elaborazione',
  },
  payloadNotXml: { en: 'it is not XML', it: 'non è XML' },
  payloadNotReceipt: { en: 'it is not a receipt', it: 'non è uno scontrino' },
  payloadNoRoot: { en: 'it has no single root element', it: 'non ha un unico elemento radice' },
  payloadSoapBody: {
    en: 'its SOAP body is not one document',
    it: 'il suo corpo SOAP non è un solo documento',
  },
  payloadEnvelope: {
    en: 'its SOAP envelope holds something besides its one body',
    it: 'la sua busta SOAP contiene altro oltre a un solo corpo',
  },
  payloadText: {
    en: 'it carries text outside the receipt’s elements',
    it: 'contiene testo fuori dagli elementi dello scontrino',
  },
  payloadRoot: {
    en: '<{element}> is not a sale, refund or void receipt',
    it: '<{element}> non è uno scontrino di vendita, di reso o di annullo',
  },
  payloadElement: {
    en: '<{element}> does not belong in a receipt',
    it: '<{element}> non fa parte di uno scontrino',
  },
  payloadCommand: {
    en: 'the native command {command} is not part of a receipt',
    it: 'il comando nativo {command} non fa parte di uno scontrino',
  },

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

/** What an amount belongs to, for `amountOutOfRange`: a bill line, a payment, or neither. */
export type AmountOwner = { kind: 'item' | 'payment'; name: string } | { kind: 'line' };

export function amountOutOfRange(owner: AmountOwner, shown: string): Message {
  return epsonRefusals.amountOutOfRange({
    what: owner.kind,
    name: owner.kind === 'line' ? '' : owner.name,
    shown,
  });
}

/** The owner of an amount in English, for the log's message. */
export function ownerForLog(owner: AmountOwner): string {
  return owner.kind === 'item'
    ? `the item "${owner.name}"`
    : owner.kind === 'payment'
      ? `the payment ${owner.name}`
      : 'an amount';
}
