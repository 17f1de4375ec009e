import { defineMessages } from '../../src/messages/catalogue.js';

/** `check-config`'s lines for a Custom printer (describe.ts). */
export const customDescribe = defineMessages('custom.describe', {
  family: {
    en: 'Custom RT printer, XML protocol at {endpoint} (HTTP Basic as {account})',
    it: 'Stampante RT Custom, protocollo XML su {endpoint} (HTTP Basic come {account})',
  },
  fromPlatform: {
    en: 'the address each command carries, within {hosts}',
    it: 'l’indirizzo indicato da ogni comando, entro {hosts}',
  },
  accountSerial: { en: 'the printer’s serial', it: 'la matricola della stampante' },
  accountUser: { en: 'user {user}', it: 'utente {user}' },
  accountFile: { en: 'the account in {file}', it: 'l’account in {file}' },
  department: {
    en: 'department {department}: {carries}',
    it: 'reparto {department}: {carries}',
  },
  vatSlot: {
    en: 'VAT {rate} %: the printer’s VAT slot {slot} (idVat)',
    it: 'IVA {rate} %: aliquota {slot} della stampante (idVat)',
  },
  payment: {
    en: 'payment {type}: Custom payment number {code}',
    it: 'pagamento {type}: numero di pagamento Custom {code}',
  },
  paymentNone: {
    en: 'payment kind {kind}: no Custom number by default; bills paying so are refused until payments names one',
    it: 'tipo di pagamento {kind}: nessun numero Custom predefinito; i conti pagati così sono rifiutati finché payments non ne indica uno',
  },
  closure: {
    en: 'daily closure ({command}) every day at {at}',
    it: 'chiusura giornaliera ({command}) ogni giorno alle {at}',
  },
  closureOff: {
    en: 'daily closure: off (run it on the printer)',
    it: 'chiusura giornaliera: disattivata (eseguirla sulla stampante)',
  },
});
