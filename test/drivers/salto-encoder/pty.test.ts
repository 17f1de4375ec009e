import { afterEach, describe, expect, it } from 'vitest';
import { EncoderSimulator } from '../../../drivers/salto-encoder/simulator/index.js';
import { silentLogger } from '../../../src/log.js';
import { readMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import type { Transport } from '../../../src/transport/types.js';
import { eventually } from '../../helpers/eventually.js';
import { requireTool } from '../../helpers/tools.js';
import { type SocatPair, socatPair } from '../../transport/socat-pair.js';
import { encoderContract } from './contract.js';
import { keyJob, makeDriver, type Rig, run } from './rig.js';

const hasSocat = requireTool('socat', 'a pseudo-terminal pair gives the encoder driver real serial I/O');

interface PtyRig extends Rig {
  pair: SocatPair;
  device: Transport;
}

/** socat pair: the simulator opens the device side first (opening discards unread input). */
async function ptyRig(): Promise<PtyRig> {
  const pair = socatPair();
  await pair.start();
  const io = createTransportFactory({ log: silentLogger });
  const sim = new EncoderSimulator({ rooms: ['101', '102', '103'], encoderIds: ['E1'] });
  const device = io.create({ type: 'serial', path: pair.b, baudRate: 9600 });
  await device.open();
  sim.attach(device);
  return {
    sim,
    pair,
    device,
    io,
    transport: { transport: 'serial', path: pair.a, baudRate: 9600 },
    dispose: async () => {
      await device.close();
      await pair.dispose();
    },
  };
}

describe.runIf(hasSocat)('salto-encoder over a pseudo-terminal (socat)', () => {
  encoderContract('a socat pseudo-terminal pair', ptyRig);

  let rig: PtyRig | undefined;
  afterEach(async () => {
    await rig?.dispose();
    rig = undefined;
  });

  it('recovers from an unplug mid-job without a new driver: reconnects and cuts the rest', async () => {
    rig = await ptyRig();
    const r = rig;
    const driver = makeDriver(r);
    r.sim.enqueue('normal', 'silent');
    r.sim.onRequest((req) => {
      if (req.index === 2) void r.pair.stop();
    });

    const first = await run(driver, keyJob());
    expect(first.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: false });
    expect(first.error?.notes).toMatch(/^The encoder was disconnected while writing key 2 of 3 for room 101/);
    expect(first.progress).toEqual([1 / 3]);
    await eventually(
      'unplugged status',
      () => english(readMessage(driver.status().summary)) === 'unplugged — waiting for it',
    );

    // Plug it back in on the same by-id-like paths; the device side opens first.
    await r.pair.start();
    await r.device.open();
    r.sim.attach(r.device);
    await eventually('background reconnect', () => driver.status().connected);

    const second = await run(driver, keyJob({}, { attempt: 2, checkpoint: first.ctx.checkpoints.at(-1) }));
    expect(second.ok && second.result.notes).toBe('3 keys for room 101');
    expect(second.progress).toEqual([2 / 3, 1]);
    expect(r.sim.cards.map((c) => c.command)).toEqual(['CN', 'CC', 'CC']);
    await driver.close();
  });

  it('a job that arrives while unplugged fails fast with DEVICE_UNAVAILABLE and nothing cut', async () => {
    rig = await ptyRig();
    const driver = makeDriver(rig);
    await driver.open(new AbortController().signal);
    await rig.pair.stop();
    await eventually('disconnect noticed by the idle reader', () => !driver.status().connected);
    const out = await run(driver, keyJob());
    expect(out.error).toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      notes: 'The encoder is not connected; check its USB cable.',
    });
    expect(out.ctx.checkpoints).toEqual([]);
    await driver.close();
  });
});
