import { defineMessages } from '../../src/messages/catalogue.js';

/**
 * Why the driver refuses a command before anything reaches the printer — the address it would
 * send to, the platform's ready-made document — as catalogue entries (what the fiscal law refuses
 * of a bill is the fiscal core's: `drivers/fiscal-it/messages.ts`) in English and Italian. Each says that nothing was printed
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
});
