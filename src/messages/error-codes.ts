import { defineMessages } from './catalogue.js';

/**
 * The sentence staff read for each error code of `src/errors.ts`, when the code that failed has
 * nothing more precise to say. Keyed by code; `src/errors.ts` checks at compile time that every
 * code has one.
 */
export const errorCodeMessages = defineMessages('error', {
  CONFIG_INVALID: {
    en: 'The agent configuration is invalid; ask IT to fix it.',
    it: 'La configurazione dell’agente non è valida: chiedere all’assistenza tecnica di correggerla.',
  },
  PLATFORM_UNREACHABLE: {
    en: 'The platform could not be reached; the agent keeps trying.',
    it: 'La piattaforma non è raggiungibile; l’agente continua a riprovare.',
  },
  PLATFORM_TIMEOUT: {
    en: 'The platform did not answer in time; the agent keeps trying.',
    it: 'La piattaforma non ha risposto in tempo; l’agente continua a riprovare.',
  },
  PLATFORM_ERROR: {
    en: 'The platform reported an internal error; the agent keeps trying.',
    it: 'La piattaforma ha segnalato un errore interno; l’agente continua a riprovare.',
  },
  PLATFORM_REJECTED: {
    en: 'The platform refused the request.',
    it: 'La piattaforma ha rifiutato la richiesta.',
  },
  PLATFORM_FORBIDDEN: {
    en: 'The platform refused the request for a business reason.',
    it: 'La piattaforma non ha consentito l’operazione per un motivo gestionale.',
  },
  PLATFORM_AUTH: {
    en: 'The platform refused the agent’s tokens; ask IT to check the integration.',
    it: 'La piattaforma rifiuta le credenziali dell’agente: chiedere all’assistenza tecnica di controllare l’integrazione.',
  },
  PLATFORM_NOT_FOUND: {
    en: 'The agent called a platform address that does not exist; ask IT to check the configuration.',
    it: 'L’agente ha chiamato un indirizzo della piattaforma che non esiste: chiedere all’assistenza tecnica di controllare la configurazione.',
  },
  PLATFORM_CONFLICT: {
    en: 'The data changed on the platform meanwhile; the agent re-reads it.',
    it: 'Nel frattempo i dati sono cambiati sulla piattaforma; l’agente li rilegge.',
  },
  REQUEST_TOO_LARGE: {
    en: 'The request was too heavy for the platform; the agent retries with smaller pages.',
    it: 'La richiesta era troppo grande per la piattaforma; l’agente riprova chiedendo meno dati alla volta.',
  },
  RATE_LIMITED: {
    en: 'The platform asked the agent to slow down; it waits as told.',
    it: 'La piattaforma ha chiesto all’agente di rallentare; l’agente attende il tempo indicato.',
  },
  REQUEST_INVALID: {
    en: 'The agent built a request outside the platform’s documented limits.',
    it: 'L’agente ha preparato una richiesta fuori dai limiti previsti dalla piattaforma.',
  },
  RESPONSE_INVALID: {
    en: 'The platform answered with data the agent does not understand; the agent keeps trying.',
    it: 'La piattaforma ha risposto con dati che l’agente non riconosce; l’agente continua a riprovare.',
  },
  COMMAND_INVALID: {
    en: 'The command from the platform is incomplete or malformed; nothing was done. Create it again.',
    it: 'Il comando arrivato dalla piattaforma è incompleto o non valido; non è stato fatto nulla. Crearlo di nuovo.',
  },
  DEVICE_UNAVAILABLE: {
    en: 'The device cannot be reached; check that it is switched on and connected.',
    it: 'Il dispositivo non è raggiungibile: controllare che sia acceso e collegato.',
  },
  DEVICE_BUSY: {
    en: 'The device is busy; the agent tries again shortly.',
    it: 'Il dispositivo è occupato; l’agente riprova tra poco.',
  },
  DEVICE_TIMEOUT: {
    en: 'The device did not answer in time.',
    it: 'Il dispositivo non ha risposto in tempo.',
  },
  DEVICE_ERROR: {
    en: 'The device reported an error; check it and try again.',
    it: 'Il dispositivo ha segnalato un errore: controllarlo e riprovare.',
  },
  PAPER_OUT: {
    en: 'The printer is out of paper; replace the roll and try again.',
    it: 'La stampante è senza carta: sostituire il rotolo e riprovare.',
  },
  COVER_OPEN: {
    en: 'The printer cover is open; close it and try again.',
    it: 'Il coperchio della stampante è aperto: chiuderlo e riprovare.',
  },
  FISCAL_REJECTED: {
    en: 'The fiscal printer refused the document; nothing was printed.',
    it: 'La stampante fiscale ha rifiutato il documento; non è stato stampato nulla.',
  },
  NO_CARD: {
    en: 'No card in the encoder; insert a blank card and try again.',
    it: 'Nessuna tessera nell’encoder: inserire una tessera vergine e riprovare.',
  },
  CARD_REJECTED: {
    en: 'The encoder refused the card; use a blank card of this hotel’s system.',
    it: 'L’encoder ha rifiutato la tessera: usare una tessera vergine del sistema di questo hotel.',
  },
  ROOM_UNKNOWN: {
    en: 'The lock system does not know this room; check the room-to-lock mapping.',
    it: 'Il sistema delle serrature non conosce questa camera: controllare l’abbinamento tra camere e serrature.',
  },
  STATE_UNKNOWN: {
    en: 'The agent cannot tell whether the device finished the job; check the device before trying again.',
    it: 'L’agente non sa se il dispositivo ha completato l’operazione: controllare il dispositivo prima di riprovare.',
  },
  ABORTED: {
    en: 'The job was stopped before it finished.',
    it: 'L’operazione è stata interrotta prima della fine.',
  },
  JOURNAL_ERROR: {
    en: 'The agent cannot write its journal; ask IT to check the disk.',
    it: 'L’agente non riesce a scrivere il suo registro: chiedere all’assistenza tecnica di controllare il disco.',
  },
  INTERNAL: {
    en: 'The agent hit an unexpected problem; ask IT to check its log.',
    it: 'L’agente ha incontrato un problema imprevisto: chiedere all’assistenza tecnica di controllarne il log.',
  },
});
