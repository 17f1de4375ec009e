import { connect, type Socket } from 'node:net';
import { fiasLockFactory } from '../../../../drivers/fias-lock/index.js';
import { FiasLockServerSimulator } from '../../../../drivers/fias-lock/simulator/index.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { FAST, freePort, keyJob } from '../../fias-lock/rig.js';
import type { ContractEntry, SilentDevice } from '../entry.js';

/**
 * fias-lock against the FIAS lock-server simulator. The agent listens and the lock server
 * connects, so "the device goes away" is the lock server ending its link (LE) and no longer
 * connecting, and "it comes back" is the lock server connecting again and finishing its
 * LD/LR/LA. A side effect is a card the lock server writes; `onRequest` tells of each key request
 * before it is answered. A job cuts three cards.
 */

const SILENT = { answerTimeoutMs: 60_000, linkTimeoutMs: 60_000, openWaitMs: 60_000 };
/** open() gives up sooner than in the driver tests: two of the checks open with the lock server away. */
const OPEN_WAIT = { openWaitMs: 1000 };

/** A lock server that connects (retrying until the driver listens) and never says anything. */
async function silentDevice(): Promise<SilentDevice> {
  const port = await freePort();
  const options = fiasLockFactory.configSchema.parse({ port, lockServer: '127.0.0.1', ...FAST, ...SILENT });
  const driver = fiasLockFactory.create(options, testDriverContext());
  let heard: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    heard = resolve;
  });
  let socket: Socket | undefined;
  let stopped = false;
  const dial = () => {
    if (stopped) return;
    const s = connect({ host: '127.0.0.1', port });
    s.on('error', () => undefined);
    s.once('connect', () => {
      socket = s;
      s.on('data', () => heard());
    });
    s.once('close', () => {
      if (socket !== s) setTimeout(dial, 10);
    });
  };
  dial();
  return {
    driver,
    asked,
    dispose: async () => {
      stopped = true;
      socket?.destroy();
    },
  };
}

export const fiasEntry: ContractEntry = {
  name: 'fias-lock with a FIAS lock server connecting over TCP',
  kind: 'fias-lock',
  offers: { device: true, effectMoment: true, finished: true },
  rig: async () => {
    const port = await freePort();
    const sim = new FiasLockServerSimulator({
      host: '127.0.0.1',
      port,
      retryMs: 20,
      rooms: ['101', '102', '103'],
    });
    sim.start();
    const store = memoryStore();
    const options = fiasLockFactory.configSchema.parse({
      port,
      lockServer: '127.0.0.1',
      ...FAST,
      ...OPEN_WAIT,
    });
    let jobs = 0;
    const cards = () => sim.cards.length;
    return {
      driver: () => fiasLockFactory.create(options, testDriverContext({ store })),
      job: () => keyJob({}, { commandId: `fias-${++jobs}` }),
      units: 3,
      effects: cards,
      finished: cards,
      onEffect: (listener) => sim.onRequest(() => listener()),
      device: {
        gone: () => sim.stop(),
        back: async () => {
          sim.start();
          await sim.whenAlive();
        },
        silent: silentDevice,
      },
      dispose: () => sim.close(),
    };
  },
};
