import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { saltoMessages, saltoTransportWords } from '../../../drivers/salto-encoder/messages.js';
import {
  EncoderSimulator,
  type EncoderTcpServer,
  startEncoderTcpServer,
} from '../../../drivers/salto-encoder/simulator/index.js';
import { ManualClock } from '../../../src/clock.js';
import { silentLogger } from '../../../src/log.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import { eventually } from '../../helpers/eventually.js';
import { encoderContract } from './contract.js';
import { keyJob, makeDriver, type Rig, run } from './rig.js';

async function tcpRig(): Promise<Rig & { server: EncoderTcpServer }> {
  const sim = new EncoderSimulator({ rooms: ['101', '102', '103'], encoderIds: ['E1'] });
  const server = await startEncoderTcpServer(sim);
  return {
    sim,
    server,
    transport: { transport: 'tcp', host: server.host, port: server.port },
    io: createTransportFactory({ log: silentLogger }),
    dispose: () => server.close(),
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  await new Promise((r) => s.close(r));
  return typeof address === 'object' && address ? address.port : 1;
}

encoderContract('TCP to a lock server', tcpRig);

describe('salto-encoder over TCP: connections', () => {
  it('uses one connection per request (a probe on open, then one per card)', async () => {
    const rig = await tcpRig();
    const driver = makeDriver(rig);
    expect(driver.status()).toMatchObject({ connected: false, summary: saltoMessages.notConnectedYet() });
    await driver.open(new AbortController().signal);
    const out = await run(driver, keyJob());
    expect(out.ok).toBe(true);
    expect(rig.server.connections).toBe(4);
    expect(driver.status()).toMatchObject({
      connected: true,
      summary: saltoMessages.ready(),
      facts: { transport: saltoTransportWords.tcp() },
    });
    await driver.close();
    await rig.dispose();
  });

  it('reports an unreachable lock server without cutting anything', async () => {
    const rig = await tcpRig();
    const driver = makeDriver({
      ...rig,
      transport: { transport: 'tcp', host: '127.0.0.1', port: await closedPort() },
    });
    await expect(driver.open(new AbortController().signal)).rejects.toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      retryable: true,
    });
    expect(driver.status()).toMatchObject({ connected: false, summary: saltoMessages.notAnswering() });
    const out = await run(driver, keyJob());
    expect(out.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: true });
    expect(out.ctx.checkpoints).toEqual([]);
    expect(driver.status()).toMatchObject({ connected: false, summary: saltoMessages.notAnswering() });
    await driver.close();
    await rig.dispose();
  });

  it('a rebooting encoder (the kit’s reboot): the card request is dropped unanswered with every connection, the port refuses while it is away, then listens again', async () => {
    const clock = new ManualClock();
    const sim = new EncoderSimulator({ clock, rebootMs: 5000 });
    const server = await startEncoderTcpServer(sim);
    const rig: Rig = {
      sim,
      transport: { transport: 'tcp', host: server.host, port: server.port },
      io: createTransportFactory({ log: silentLogger }),
      dispose: () => server.close(),
    };
    const driver = makeDriver(rig);
    sim.enqueue('normal', 'reboot');
    const out = await run(driver, keyJob({ keyCount: 2 }));
    expect(out.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: false });
    expect(out.error?.notes).toBe(
      'The encoder was disconnected while writing key 2 of 2 for room 101; test that card before handing it out. 1 of 2 keys was cut before this.',
    );
    expect(sim.cards).toHaveLength(1);
    expect(server.up).toBe(false);
    expect(await reachable(server.port)).toBe(false);
    await clock.advance(5000);
    await eventually('the encoder is back', () => server.up);
    expect(await reachable(server.port)).toBe(true);
    expect((await run(driver, keyJob({ keyCount: 1 }))).ok).toBe(true);
    await driver.close();
    await rig.dispose();
  });
});

/** Whether a TCP connection to 127.0.0.1:`port` is accepted. */
function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
