import { networkInterfaces } from 'node:os';
import { cannotSimulate } from '../../src/drivers-api/simulation.js';
import type { DiscoveryReport, DriverFactory } from '../../src/drivers-api/types.js';
import { isLoopback } from '../../src/loopback.js';
import { type FiasLockOptions, FiasLockOptionsSchema, listenAddress } from './config.js';
import { FiasLockDriver } from './driver.js';
import { fiasDescribe } from './messages.js';

/** The port the README's examples and `devices` suggest; FIAS itself names none. */
export const SUGGESTED_PORT = 5010;

/**
 * Key cutters behind a FIAS lock server (Oracle's IFC8 FIAS, the protocol dormakaba's systems and
 * Salto Space's "Oracle Hospitality PMS (FIAS)" interface speak): the agent listens, the lock
 * server connects to it. See README.md for pointing a real lock server at the agent.
 */
export const fiasLockFactory: DriverFactory<FiasLockOptions> = {
  kind: 'fias-lock',
  deviceType: 'KeyCutter',
  configSchema: FiasLockOptionsSchema,
  create: (options, ctx) => new FiasLockDriver(options, ctx),
  simulate: async (options, device) => {
    if (!isLoopback(options.host) || options.lockServers.some((s) => !isLoopback(s))) {
      throw cannotSimulate(
        device,
        `a simulated FIAS lock server needs host and lockServer on loopback, e.g. host 127.0.0.1, port ${SUGGESTED_PORT}`,
      );
    }
    // The simulator is loaded only in simulate mode: an agent with a real lock server never holds it.
    const { FiasLockServerSimulator } = await import('./simulator/index.js');
    const sim = new FiasLockServerSimulator({
      host: options.host === 'localhost' ? '127.0.0.1' : options.host,
      port: options.port,
      localAddress: options.lockServers[0] as string,
      log: device.log,
    });
    sim.start();
    return {
      description: `simulated FIAS lock server connecting to ${listenAddress(options)}`,
      close: () => sim.stop(500),
    };
  },
  describe: (o) => [
    fiasDescribe.listens({ address: listenAddress(o), lockServers: o.lockServers.join(', ') }),
    fiasDescribe.encoder({
      encoder: o.encoderId ?? fiasDescribe.encoderOfCommand(),
      workstation: o.workstation,
    }),
    o.firstKey === 'new'
      ? fiasDescribe.firstKeyNew({ format: o.departureTime })
      : fiasDescribe.firstKeyDuplicate({ format: o.departureTime }),
  ],
  discover: async (): Promise<DiscoveryReport> => ({
    devices: lanAddresses().map((address) => ({
      source: 'FIAS lock server (it connects to the agent)',
      name: 'this PC, for a FIAS lock server',
      address: `${address}:${SUGGESTED_PORT}`,
      note: `point the lock server's PMS (FIAS) interface at ${address}, port ${SUGGESTED_PORT}, and set lockServer to the lock server's address`,
      suggestedOptions: { host: address, port: SUGGESTED_PORT, lockServer: '<the lock server’s IP address>' },
    })),
    problems: [],
  }),
};

/** This PC's IPv4 addresses on the LAN (not loopback, not link-local). */
function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) out.push(a.address);
    }
  }
  return out;
}

export type { FiasLockOptions } from './config.js';
export { FiasLockOptionsSchema } from './config.js';
export type { EncodedKey, LockBehaviour } from './simulator/index.js';
