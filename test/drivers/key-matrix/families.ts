import { connect, type Socket } from 'node:net';
import { fiasLockFactory } from '../../../drivers/fias-lock/index.js';
import { FiasLockServerSimulator, type LockBehaviour } from '../../../drivers/fias-lock/simulator/index.js';
import { saltoEncoderFactory } from '../../../drivers/salto-encoder/index.js';
import {
  type EncoderBehaviour,
  EncoderSimulator,
  startEncoderTcpServer,
} from '../../../drivers/salto-encoder/simulator/index.js';
import { simEncoderFactory } from '../../../drivers/stand-ins/index.js';
import type { LedgerEntry } from '../../../drivers/stand-ins/ledger.js';
import type { Clock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import { jobFor, memoryStore, testDriverContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import * as fias from '../fias-lock/rig.js';
import * as salto from '../salto-encoder/rig.js';
import type { KeyMatrixFamily, KeyMatrixRig } from './family.js';

/**
 * The key families the recovery matrix plays its faults on, by driver kind, each against its
 * device: the FIAS driver and the lock-server simulator that connects to it, the PMS-protocol
 * driver and the encoder simulator behind the simulator kit's TCP server, and the simulated
 * encoder (`sim-encoder`, whose device is its ledger).
 */

const live = () => new AbortController().signal;

/** A key device simulator as the rig reads it: its own record, and behaviours scripted per request. */
interface RecordingDevice<B> {
  readonly cards: readonly unknown[];
  readonly requests: readonly unknown[];
  enqueue(...behaviours: B[]): void;
  onRequest(listener: (request: { index: number }) => void): unknown;
}

/**
 * The rig's view of `sim`: cards and requests from its record, each request told by its index, and
 * a fault at `card` after the first `card - 1` requests are `served`.
 */
function deviceRecord<B>(
  sim: RecordingDevice<B>,
  served: B,
): Pick<KeyMatrixRig, 'cards' | 'requests' | 'onRequest'> & { fault(fault: B, card: number): void } {
  return {
    cards: () => sim.cards.length,
    requests: () => sim.requests.length,
    fault: (fault, card) => sim.enqueue(...Array<B>(card - 1).fill(served), fault),
    onRequest: (listener) => {
      sim.onRequest((r) => listener(r.index));
    },
  };
}

const fiasFamily: KeyMatrixFamily = {
  kind: 'fias-lock',
  cannot: {},
  expects: {
    'link replaced mid-card': {
      outcome: 'done',
      deviceCards: 3,
      deviceRequests: 3,
      why: 'another connection from the lock server’s address waits until the key in flight is answered, then is refused because the link in force answers its alive check (issue 40 M1; drivers/fias-lock/admission.ts)',
    },
  },
  rig: async () => {
    const port = await fias.freePort();
    const sim = new FiasLockServerSimulator({
      host: '127.0.0.1',
      port,
      retryMs: 20,
      lateMs: 50,
      rebootMs: 100,
    });
    const store = memoryStore();
    const answerTimeoutMs = 60_000;
    const others: Socket[] = [];
    sim.start();
    const rig: KeyMatrixRig = {
      answerTimeoutMs,
      async driver(clock?: Clock) {
        const options = fiasLockFactory.configSchema.parse({
          port,
          lockServer: '127.0.0.1',
          ...fias.FAST,
          answerTimeoutMs,
          linkTimeoutMs: 3_600_000,
        });
        const driver = fiasLockFactory.create(
          options,
          testDriverContext({ store, ...(clock ? { clock } : {}) }),
        );
        await driver.open(live());
        await sim.whenAlive();
        return driver;
      },
      job: (() => {
        let jobs = 0;
        return () => fias.keyJob({ keyCount: 3 }, { commandId: `fias-${++jobs}` });
      })(),
      ...deviceRecord<LockBehaviour>(sim, 'ok'),
      back: async () => {
        await eventually('the lock server linked again', () => sim.alive && sim.connections >= 2);
      },
      // A second connection from the lock server's address while the card's KR is in flight (its
      // answer comes late).
      replaceLink: (card) => {
        rig.fault('slow', card);
        rig.onRequest((index) => {
          if (index !== card) return;
          const socket = connect({ host: '127.0.0.1', port });
          socket.on('error', () => undefined);
          others.push(socket);
        });
      },
      dispose: async () => {
        for (const socket of others) socket.destroy();
        await sim.close();
      },
    };
    return rig;
  },
};

const saltoFamily: KeyMatrixFamily = {
  kind: 'salto-encoder',
  cannot: {},
  expects: {
    'link replaced mid-card': {
      outcome: 'failed',
      cut: 1,
      inDoubt: 2,
      deviceCards: 2,
      deviceRequests: 2,
      why: 'one connection per card: the lock server dropped the card’s connection after writing it and the next card would go over a new one — the reply is lost, so card 2 may be written and is never asked for again (drivers/salto-encoder/link.ts, phase reply)',
    },
  },
  rig: async () => {
    const sim = new EncoderSimulator({ rooms: ['101'], encoderIds: ['E1'], rebootMs: 100 });
    const server = await startEncoderTcpServer(sim);
    const io = createTransportFactory({ log: silentLogger });
    const store = memoryStore();
    const answerTimeoutMs = 60_000;
    const transport = { transport: 'tcp', host: server.host, port: server.port };
    let jobs = 0;
    const rig: KeyMatrixRig = {
      answerTimeoutMs,
      async driver(clock?: Clock) {
        const options = saltoEncoderFactory.configSchema.parse({
          ...transport,
          ...salto.FAST,
          ackTimeoutMs: 59_000,
          cardTimeoutMs: answerTimeoutMs,
        });
        const driver = saltoEncoderFactory.create(
          options,
          testDriverContext({ io, store, ...(clock ? { clock } : {}) }),
        );
        await driver.open(live());
        return driver;
      },
      job: () => salto.keyJob({ keyCount: 3 }, { commandId: `salto-${++jobs}` }),
      ...deviceRecord<EncoderBehaviour>(sim, 'normal'),
      back: async () => {
        await eventually('the encoder listens again', () => server.up);
      },
      // The card's connection dropped by the lock server once the card is written.
      replaceLink: (card) => rig.fault('drop-after-effect', card),
      dispose: () => server.close(),
    };
    return rig;
  },
};

const NO_LINK = 'a simulated encoder in the agent’s own process: no link, no answer to lose, never busy';

const simEncoderFamily: KeyMatrixFamily = {
  kind: 'sim-encoder',
  cannot: {
    'lost answer': NO_LINK,
    'link replaced mid-card': NO_LINK,
    'encoder rebooted': NO_LINK,
    'busy encoder': NO_LINK,
  },
  rig: async () => {
    const store = memoryStore();
    const options = simEncoderFactory.configSchema.parse({ durationMs: 0, jitterMs: 0 });
    const ledger = () => {
      const entries = store.get('ledger');
      return Array.isArray(entries) ? (entries as LedgerEntry[]).filter((e) => e.action === 'card') : [];
    };
    let jobs = 0;
    return {
      answerTimeoutMs: 0,
      async driver() {
        const driver = simEncoderFactory.create(options, testDriverContext({ store }));
        await driver.open(live());
        return driver;
      },
      job: () =>
        jobFor(
          { kind: 'keys', keys: salto.keyData({ keyCount: 3, settings: { value: {} } }) },
          { commandId: `sim-${++jobs}` },
        ),
      cards: () => ledger().length,
      requests: () => ledger().length,
      fault: () => {
        throw new Error(NO_LINK);
      },
      onRequest: () => undefined,
      back: async () => undefined,
      dispose: async () => undefined,
    };
  },
};

/** Every key family the matrix knows, by driver kind. */
export const keyMatrixFamilies: ReadonlyMap<string, KeyMatrixFamily> = new Map(
  [fiasFamily, saltoFamily, simEncoderFamily].map((f) => [f.kind, f]),
);
