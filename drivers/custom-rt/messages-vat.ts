import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What staff read of the check of the printer's VAT slots (`vat-slots.ts`, `getVatRate`, XML
 * protocol manual rev 2.00 p.71): the page's fact, a slot at another rate than `vatSlots` says,
 * and a bill refused because of one. `{expected}` and `{actual}` are `rate` ("VAT 22 %").
 */
export const customVatWords = defineMessages('custom.vat', {
  rate: { en: 'VAT {rate} %', it: 'IVA {rate} %' },
  slotsMatch: {
    en: 'matches the driver’s vatSlots ({count, plural, one {# slot} other {# slots}} read)',
    it: 'corrisponde ai vatSlots del driver ({count, plural, one {# aliquota letta} other {# aliquote lette}})',
  },
  slotsDiffer: {
    en: '{count, plural, one {# VAT slot differs} other {# VAT slots differ}} from the driver’s vatSlots',
    it: '{count, plural, one {# aliquota IVA diversa} other {# aliquote IVA diverse}} dai vatSlots del driver',
  },
  slotsUnreadable: {
    en: 'cannot be read from this printer (getVatRate refused or answered in another layout): not checked',
    it: 'non leggibile da questa stampante (getVatRate rifiutato o con risposta in altro formato): non controllata',
  },
  slotMismatch: {
    en: 'VAT slot {slot} is programmed on the printer at {actual}, but the agent prints its {expected} lines in it: program slot {slot} at {expected} on the printer, or change the driver’s vatSlots ("{key}": the slot programmed for {expected}).',
    it: 'L’aliquota IVA {slot} è programmata sulla stampante a {actual}, ma l’agente vi stampa le righe con {expected}: programmare l’aliquota {slot} a {expected} sulla stampante, oppure cambiare i vatSlots del driver ("{key}": l’aliquota programmata per {expected}).',
  },
  lineAtWrongSlot: {
    en: 'The bill line "{item}" would print in VAT slot {slot}, which the printer has programmed at {actual} instead of {expected}; nothing was printed. Ask IT to program VAT slot {slot} at {expected} on the printer, or to change the driver’s vatSlots.',
    it: 'La riga del conto "{item}" verrebbe stampata con l’aliquota IVA {slot}, che la stampante ha programmato a {actual} invece che a {expected}; non è stato stampato nulla. Chiedere all’assistenza informatica di programmare l’aliquota IVA {slot} a {expected} sulla stampante, o di cambiare i vatSlots del driver.',
  },
  recheckUnanswered: {
    en: 'The fiscal printer did not answer when the agent read its VAT table again before printing; nothing was printed. The agent tries again.',
    it: 'La stampante fiscale non ha risposto quando l’agente ne ha riletto la tabella IVA prima di stampare; non è stato stampato nulla. L’agente riprova.',
  },
});
