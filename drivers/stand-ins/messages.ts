import { defineMessages } from '../../src/messages/catalogue.js';

/** What the simulated printer and encoder (`sim-fiscal`, `sim-encoder`) tell staff. */
export const simMessages = defineMessages('sim', {
  partlyCut: {
    en: '{cut, number} of {count} keys {cut, plural, one {was} other {were}} cut before the agent restarted; cut the rest again if needed.',
    it: 'Prima del riavvio dell’agente {cut, plural, one {è stata codificata # chiave} other {sono state codificate # chiavi}} su {count}; se servono, codificare di nuovo le altre.',
  },
  encoderReady: { en: 'ready (simulated encoder)', it: 'pronto (encoder simulato)' },
  encoderNotOpened: { en: 'not opened yet', it: 'non ancora aperto' },
  printerReady: { en: 'ready (simulated printer)', it: 'pronta (stampante simulata)' },
  printerNotOpened: { en: 'not opened yet', it: 'non ancora aperta' },
  payloadDamaged: {
    en: 'The fiscal document from the platform is damaged; nothing was printed. Issue the receipt again.',
    it: 'Il documento fiscale arrivato dalla piattaforma è danneggiato; non è stato stampato nulla. Emettere di nuovo lo scontrino.',
  },
  refundWithoutOriginal: {
    en: 'The refund does not say which receipt it refunds; nothing was printed.',
    it: 'Il reso non indica lo scontrino a cui si riferisce; non è stato stampato nulla.',
  },
  receiptPrinted: {
    en: 'Receipt {receipt} on RT {serial}, total {total}',
    it: 'Scontrino {receipt} su RT {serial}, totale {total}',
  },
  receiptUnreadable: {
    en: 'The agent stopped while a receipt was being printed and cannot read what it had recorded about it. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.',
    it: 'L’agente si è fermato mentre stampava uno scontrino e non riesce a leggere cosa aveva registrato al riguardo. Controllare l’ultimo scontrino della stampante: se c’è, non fare nulla; altrimenti emetterlo di nuovo.',
  },
  receiptPrintedNoTotal: {
    en: 'Receipt {receipt} on RT {serial}',
    it: 'Scontrino {receipt} su RT {serial}',
  },
});

/** Labels of the simulated encoder's facts and details (see `src/drivers-api/messages.ts`). */
export const simEncoderLabels = defineMessages('label.sim-encoder', {
  cardsCut: { en: 'Cards cut', it: 'Tessere codificate' },
});

/** Labels of the simulated printer's facts and details. */
export const simFiscalLabels = defineMessages('label.sim-fiscal', {
  printed: { en: 'Receipts printed', it: 'Scontrini stampati' },
});
