import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * What staff read when the check of the printer's department programming cannot decide
 * (`programming.ts`, `programming-check.ts`): a VAT group no public source explains, and a printer
 * that did not answer the read made just before refusing a document. The mismatch sentences live
 * with the printer's other words (`messages-printer.ts`). `{expected}` is `classRate` or
 * `classNature` ("VAT 22 %", "nature N1").
 */
export const epsonProgrammingWords = defineMessages('epson.programming', {
  cannotCheck: {
    en: 'Department {department} reports VAT group {group} on the printer, which the agent cannot interpret, so it cannot check that the department carries {expected}; receipts still print. Check on the printer that department {department} is programmed for {expected} (the agent prints its {expected} lines there: "{key}" in the driver’s departments).',
    it: 'Il reparto {department} riporta sulla stampante il gruppo IVA {group}, che l’agente non sa interpretare, quindi non può controllare che il reparto sia per {expected}; gli scontrini si stampano comunque. Controllare sulla stampante che il reparto {department} sia programmato per {expected} (l’agente vi stampa le righe con {expected}: "{key}" nei departments del driver).',
  },
  recheckUnanswered: {
    en: 'The fiscal printer did not answer when the agent read its department programming again before printing; nothing was printed. The agent tries again.',
    it: 'La stampante fiscale non ha risposto quando l’agente ne ha riletto la programmazione dei reparti prima di stampare; non è stato stampato nulla. L’agente riprova.',
  },
});
