import { defineMessages } from '../messages/catalogue.js';

/** What the command line says to people (in the configured `locale`; errors stay English). */
export const cliMessages = defineMessages('cli', {
  followingSocket: {
    en: 'No local agent answers on its status address; following the platform’s events instead.',
    it: 'Nessun agente locale risponde al suo indirizzo di stato; seguo invece gli eventi della piattaforma.',
  },
  cannotFollow: {
    en: 'Created. No local agent answers and no WebSocket is configured, so the command cannot be followed.',
    it: 'Creato. Nessun agente locale risponde e nessun WebSocket è configurato, quindi non posso seguire il comando.',
  },
  stoppedFollowing: {
    en: 'Stopped following; the command goes on without this command line.',
    it: 'Smetto di seguirlo; il comando prosegue senza questa riga di comando.',
  },
  actionRefused: {
    en: 'The agent refused the action (HTTP {status}).',
    it: 'L’agente ha rifiutato l’operazione (HTTP {status}).',
  },
  agentUnreachable: {
    en: 'No agent answers at {base}: the action runs in the agent, which holds the device. Start it (systemctl start frontdesk-agent), then try again.',
    it: 'Nessun agente risponde a {base}: l’operazione viene eseguita dall’agente, che gestisce il dispositivo. Avviarlo (systemctl start frontdesk-agent), poi riprovare.',
  },
  stateProgress: { en: '{state} {percent}%', it: '{state} {percent}%' },
});
