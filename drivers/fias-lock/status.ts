import { factTime } from '../../src/drivers-api/facts.js';
import { keysForRoomsWords } from '../../src/drivers-api/messages.js';
import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { AgentError } from '../../src/errors.js';
import { type Message, readMessage } from '../../src/messages/message.js';
import { type FiasLockOptions, listenAddress } from './config.js';
import type { EndpointState } from './endpoint.js';
import { type fiasLabels, fiasMessages } from './messages.js';

/**
 * The device as the status page, `/metrics` and `doctor` see it. `connected` is the FIAS link
 * being Alive. Facts that become gauges (`frontdesk_device_fact{fact=…}`): `linkUp` and
 * `lockServerConnected` (1/0), `linkDrops`, `refusedConnections`, `secondConnectionsRefused`,
 * `linkReplacements`, `keysCut`, and `lastKeyAt`
 * (Unix seconds); `link` and `lastKey` are words for the page.
 */
/** What staff read first on the card; the addresses, counters and codes are technical. */
const STAFF_FACTS: ReadonlyArray<keyof typeof fiasLabels> = ['link', 'keysCut', 'lastKey', 'lastKeyAt'];

/** The last key job that ended Processed. */
export interface LastKey {
  count: number;
  rooms: readonly string[];
  at: number;
}

export interface StatusInput {
  options: FiasLockOptions;
  /** Undefined before the first `open()` and after `close()`. */
  endpoint: EndpointState | undefined;
  active: { card: number; total: number } | undefined;
  keysCut: number;
  lastKey: LastKey | undefined;
  lastProblem: AgentError | undefined;
}

export function linkStatus(input: StatusInput): DeviceStatus {
  const { options, endpoint: e, active } = input;
  const address = listenAddress(options);
  let summary: Message;
  let link: Message;
  if (active && e?.alive) summary = fiasMessages.cutting(active);
  else if (e?.alive) summary = fiasMessages.ready();
  else if (e?.connected) summary = fiasMessages.starting();
  else if (e?.listening) summary = fiasMessages.waiting();
  else if (e?.bindProblem) summary = fiasMessages.cannotListen();
  else summary = fiasMessages.notListening();
  if (e?.alive) link = fiasMessages.stateAlive();
  else if (e?.connected) link = fiasMessages.stateStarting();
  else if (e?.listening) link = fiasMessages.stateWaiting();
  else link = fiasMessages.stateNotListening();

  const warnings: Message[] = [];
  if (e && !e.alive) {
    if (e.bindProblem) warnings.push(readMessage(e.bindProblem.notes));
    else if (e.connected) warnings.push(fiasMessages.linkNotStarted());
    else warnings.push(fiasMessages.notConnected({ address }));
    if (e.lastRefused !== undefined) {
      warnings.push(fiasMessages.refused({ from: e.lastRefused, allowed: options.lockServers.join(', ') }));
    }
  }
  const facts: FactsOf<typeof fiasLabels> = {
    link,
    linkUp: e?.alive ?? false,
    listen: address,
    lockServer: options.lockServers.join(', '),
    lockServerConnected: e?.connected ?? false,
    lockServerVersion: e?.lockServerVersion ?? null,
    linkDrops: e?.linkDrops ?? 0,
    refusedConnections: e?.refusedConnections ?? 0,
    secondConnectionsRefused: e?.secondConnectionsRefused ?? 0,
    linkReplacements: e?.linkReplacements ?? 0,
    keysCut: input.keysCut,
    lastKey: input.lastKey ? keysForRoomsWords(input.lastKey.count, input.lastKey.rooms) : null,
    lastKeyAt: input.lastKey ? factTime(input.lastKey.at) : null,
    lastError: input.lastProblem?.code ?? null,
  };
  const status: DeviceStatus = {
    connected: e?.alive ?? false,
    summary,
    warnings,
    facts,
    staffFacts: STAFF_FACTS,
  };
  if (e?.lastHeard !== undefined) status.lastContact = e.lastHeard;
  return status;
}
