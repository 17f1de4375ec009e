import { defineMessages } from '../../src/messages/catalogue.js';

/** `check-config`'s lines for an RCH printer (describe.ts). */
export const rchDescribe = defineMessages('rch.describe', {
  family: {
    en: 'RCH RT printer, web service at {endpoint}; the journal is read under the {key} key',
    it: 'Stampante RT RCH, web service su {endpoint}; il giornale si legge con la chiave {key}',
  },
  fromPlatform: {
    en: 'the address each command carries, within {hosts}',
    it: 'l’indirizzo indicato da ogni comando, entro {hosts}',
  },
  department: {
    en: 'department {department}: {carries} (the printer’s programming gives its VAT)',
    it: 'reparto {department}: {carries} (l’IVA è quella programmata sulla stampante)',
  },
  payment: {
    en: 'payment {type}: RCH payment form {form}',
    it: 'pagamento {type}: forma di pagamento RCH {form}',
  },
  paymentNone: {
    en: 'payment kind {kind}: no RCH form by default; bills paying so are refused until payments names one',
    it: 'tipo di pagamento {kind}: nessuna forma RCH predefinita; i conti pagati così sono rifiutati finché payments non ne indica una',
  },
  closure: {
    en: 'daily closure (Z key, =C10) every day at {at}',
    it: 'chiusura giornaliera (chiave Z, =C10) ogni giorno alle {at}',
  },
  closureOff: {
    en: 'daily closure: off (run it on the printer)',
    it: 'chiusura giornaliera: disattivata (eseguirla sulla stampante)',
  },
});
