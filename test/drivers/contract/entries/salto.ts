import { saltoEncoderFactory } from '../../../../drivers/salto-encoder/index.js';
import {
  EncoderSimulator,
  type EncoderTcpServer,
  startEncoderTcpServer,
} from '../../../../drivers/salto-encoder/simulator/index.js';
import type { Driver } from '../../../../src/drivers-api/types.js';
import { silentLogger } from '../../../../src/log.js';
import { createTransportFactory } from '../../../../src/transport/factory.js';
import { MemoryHub } from '../../../../src/transport/testing/memory.js';
import type { TransportFactory } from '../../../../src/transport/types.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { FAST, keyJob } from '../../salto-encoder/rig.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry, ContractRig, DeviceControl } from '../entry.js';

/**
 * salto-encoder against its encoder simulator, over a memory endpoint (a cable: unplugged and
 * plugged in again) and over TCP to a lock server (stops listening, listens again on the same
 * port). A side effect is a card the encoder writes; `onRequest` tells of each request before the
 * encoder answers it. A job cuts three cards.
 */

const SILENT = { ackTimeoutMs: 60_000, cardTimeoutMs: 60_000 };

function encoder(): EncoderSimulator {
  return new EncoderSimulator({ rooms: ['101', '102', '103'], encoderIds: ['E1'] });
}

function saltoRig(
  sim: EncoderSimulator,
  transport: Record<string, unknown>,
  io: TransportFactory,
  device: DeviceControl,
  dispose: () => Promise<void>,
): ContractRig {
  const store = memoryStore();
  const options = saltoEncoderFactory.configSchema.parse({ ...transport, ...FAST });
  let jobs = 0;
  const cards = () => sim.cards.length;
  return {
    driver: () => saltoEncoderFactory.create(options, testDriverContext({ io, store })),
    job: () => keyJob({}, { commandId: `salto-${++jobs}` }),
    units: 3,
    effects: cards,
    finished: cards,
    onEffect: (listener) => sim.onRequest(() => listener()),
    device,
    dispose,
  };
}

function silentDriver(transport: Record<string, unknown>, io: TransportFactory): Driver {
  const options = saltoEncoderFactory.configSchema.parse({ ...transport, ...FAST, ...SILENT });
  return saltoEncoderFactory.create(options, testDriverContext({ io }));
}

const offers = { device: true, effectMoment: true, finished: true };

export const saltoEntries: ContractEntry[] = [
  {
    name: 'salto-encoder over a memory endpoint',
    kind: 'salto-encoder',
    offers,
    rig: async () => {
      const hub = new MemoryHub();
      const sim = encoder();
      sim.serve(hub, 'encoder');
      const io = createTransportFactory({ log: silentLogger, memory: hub });
      return saltoRig(
        sim,
        { transport: 'memory', name: 'encoder' },
        io,
        {
          gone: async () => hub.unplug('encoder'),
          back: async () => {
            sim.serve(hub, 'encoder');
          },
          silent: async () => {
            let heard: () => void = () => undefined;
            const asked = new Promise<void>((resolve) => {
              heard = resolve;
            });
            hub.listen('silent', (end) => {
              end.onData(() => heard());
            });
            const driver = silentDriver({ transport: 'memory', name: 'silent' }, io);
            return { driver, asked, dispose: async () => hub.unplug('silent') };
          },
        },
        async () => hub.unplug('encoder'),
      );
    },
  },
  {
    name: 'salto-encoder over TCP to a lock server',
    kind: 'salto-encoder',
    offers,
    rig: async () => {
      const sim = encoder();
      let server: EncoderTcpServer = await startEncoderTcpServer(sim);
      const port = server.port;
      const io = createTransportFactory({ log: silentLogger });
      return saltoRig(
        sim,
        { transport: 'tcp', host: '127.0.0.1', port },
        io,
        {
          gone: () => server.close(),
          back: async () => {
            server = await startEncoderTcpServer(sim, { port });
          },
          silent: async () => {
            const silent = await startSilentServer();
            const driver = silentDriver({ transport: 'tcp', host: '127.0.0.1', port: silent.port }, io);
            return { driver, asked: silent.asked, dispose: silent.close };
          },
        },
        () => server.close(),
      );
    },
  },
];
