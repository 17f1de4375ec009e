import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What an Epson RT configuration means, as `frontdesk-agent check-config` prints it (`describe.ts`)
 * for IT to compare with the printer's programming: departments with their VAT rate or nature,
 * natures by item type, payment rules, the daily closure — in English and Italian. Option names
 * and the printer's own codes (`paymentType`, `printXZReport`) stay as they are written.
 */
export const epsonDescribe = defineMessages('epson.describe', {
  family: {
    en: 'Epson RT printer, Fiscal ePOS-Print XML (fpmate) at {endpoint}',
    it: 'Stampante RT Epson, XML Fiscal ePOS-Print (fpmate) su {endpoint}',
  },
  fromPlatform: {
    en: 'the address each command carries, within {hosts}',
    it: 'l’indirizzo indicato da ogni comando, entro {hosts}',
  },
  department: { en: 'department {department}: {carries}', it: 'reparto {department}: {carries}' },
  vatRate: { en: 'VAT {rate} %', it: 'IVA {rate} %' },
  nature: { en: 'nature {nature}', it: 'natura {nature}' },
  natureWithWords: { en: 'nature {nature} ({words})', it: 'natura {nature} ({words})' },
  N1: { en: 'EE, excluded (art. 15)', it: 'EE, esclusa (art. 15)' },
  N2: { en: 'NS, not subject to VAT', it: 'NS, non soggetta a IVA' },
  N3: { en: 'NI, not taxable', it: 'NI, non imponibile' },
  N4: { en: 'ES, exempt', it: 'ES, esente' },
  N5: { en: 'RM, margin scheme', it: 'RM, regime del margine' },
  N6: { en: 'AL, other operations without VAT', it: 'AL, altre operazioni senza IVA' },
  defaultDepartment: {
    en: 'department {department}: lines the agent cannot classify',
    it: 'reparto {department}: le righe che l’agente non sa classificare',
  },
  unclassifiedRefused: {
    en: 'lines the agent cannot classify: refused, nothing printed',
    it: 'righe che l’agente non sa classificare: rifiutate, non si stampa nulla',
  },
  itemNature: {
    en: 'items of type or category {type}: nature {nature}',
    it: 'articoli di tipo o categoria {type}: natura {nature}',
  },
  payment: { en: 'payment {type}: {rule}', it: 'pagamento {type}: {rule}' },
  ruleDeposit: {
    en: 'deducted as a deposit (acconto, adjustment 10)',
    it: 'detratto come acconto (rettifica 10)',
  },
  ruleVoucher: {
    en: 'deducted as a single-use voucher (adjustment 12)',
    it: 'detratto come buono monouso (rettifica 12)',
  },
  ruleKind: { en: 'kind {kind}: {printed}', it: 'tipo {kind}: {printed}' },
  rulePayment: { en: 'paymentType {type}, index {index}', it: 'paymentType {type}, indice {index}' },
  rulePaymentNamed: {
    en: 'paymentType {type}, index {index} ({description})',
    it: 'paymentType {type}, indice {index} ({description})',
  },
  paymentsBuiltIn: {
    en: 'payments: {count} platform payment types built in (README), any other refused',
    it: 'pagamenti: {count} tipi di pagamento della piattaforma già previsti (README), qualsiasi altro rifiutato',
  },
  paymentsBuiltInOther: {
    en: 'payments: {count} platform payment types built in (README), any other: {rule}',
    it: 'pagamenti: {count} tipi di pagamento della piattaforma già previsti (README), qualsiasi altro: {rule}',
  },
  closure: {
    en: 'daily closure: {command} at {at} local time, retried every {retry} min for {hours} h; day open too long: {onDayTooLong}',
    it: 'chiusura giornaliera: {command} alle {at} ora locale, ritentata ogni {retry} min per {hours} h; giornata aperta da troppo tempo: {onDayTooLong}',
  },
  closureOff: {
    en: 'daily closure: off (run the Z report on the printer every day)',
    it: 'chiusura giornaliera: disattivata (eseguire il rapporto Z sulla stampante ogni giorno)',
  },
});
