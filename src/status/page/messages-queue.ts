import { defineMessages } from '../../messages/catalogue.js';

/**
 * What waits and why: the page's Waiting section, its "Try delivery now" action and the same
 * lines in `doctor` (`queue-words.ts`).
 */
export const queueMessages = defineMessages('queue', {
  heading: { en: 'Waiting', it: 'In attesa' },
  nothingWaits: { en: 'Nothing is waiting.', it: 'Niente in attesa.' },
  deviceQueued: {
    en: '{device}: {count, plural, one {# command} other {# commands}} queued',
    it: '{device}: {count, plural, one {# comando} other {# comandi}} in coda',
  },
  outboxWaiting: {
    en: '{count, plural, one {# result or update} other {# results and updates}} not yet delivered to the platform',
    it: '{count, plural, one {# risultato o aggiornamento non ancora consegnato} other {# risultati e aggiornamenti non ancora consegnati}} alla piattaforma',
  },
  line: { en: '{what} — {why}', it: '{what} — {why}' },
  behindRunning: {
    en: 'behind the command running now ({id})',
    it: 'dietro al comando in corso ({id})',
  },
  rateLimitedUntil: {
    en: 'rate limited until {until}',
    it: 'limite di richieste della piattaforma fino alle {until}',
  },
  unreachableSince: {
    en: 'platform unreachable since {since} ({code}); next try at {until}',
    it: 'piattaforma irraggiungibile dalle {since} ({code}); prossimo tentativo alle {until}',
  },
  unreachableSinceTrying: {
    en: 'platform unreachable since {since} ({code}); trying again now',
    it: 'piattaforma irraggiungibile dalle {since} ({code}); nuovo tentativo in corso',
  },
  refusedSince: {
    en: 'the platform refuses the agent’s tokens since {since} ({code}); next try at {until}',
    it: 'la piattaforma rifiuta le credenziali dell’agente dalle {since} ({code}); prossimo tentativo alle {until}',
  },
  refusedSinceTrying: {
    en: 'the platform refuses the agent’s tokens since {since} ({code}); trying again now',
    it: 'la piattaforma rifiuta le credenziali dell’agente dalle {since} ({code}); nuovo tentativo in corso',
  },
  beingDelivered: { en: 'being delivered', it: 'consegna in corso' },
  deliverNowLabel: { en: 'Try delivery now', it: 'Riprova la consegna ora' },
  deliverNowDescription: {
    en: 'Sends the results waiting for the platform now instead of at the next try. A rate limit the platform asked for still holds.',
    it: 'Invia subito i risultati in attesa invece che al prossimo tentativo. Un limite di richieste chiesto dalla piattaforma resta valido.',
  },
  deliverNowNothing: {
    en: 'Nothing is waiting to be delivered.',
    it: 'Non c’è nulla da consegnare.',
  },
  deliverNowStarted: {
    en: 'Delivering {count, plural, one {# waiting update} other {# waiting updates}} now.',
    it: 'Consegna di {count, plural, one {# aggiornamento in attesa} other {# aggiornamenti in attesa}} avviata.',
  },
  deliverNowAlready: {
    en: '{count, plural, one {# update is} other {# updates are}} already being delivered.',
    it: '{count, plural, one {# aggiornamento è} other {# aggiornamenti sono}} già in consegna.',
  },
  deliverNowRateLimited: {
    en: 'The platform asked the agent to wait until {until}; {count, plural, one {the waiting update goes} other {the # waiting updates go}} then.',
    it: 'La piattaforma ha chiesto all’agente di attendere fino alle {until}; {count, plural, one {l’aggiornamento in attesa parte} other {i # aggiornamenti in attesa partono}} allora.',
  },
  deliverNowUnavailable: {
    en: 'This agent has no outbox to deliver.',
    it: 'Questo agente non ha risultati da consegnare.',
  },
});
