import { describe, expect, it } from 'vitest';
import { EncoderSimulator } from '../../../drivers/salto-encoder/simulator/index.js';
import { silentLogger } from '../../../src/log.js';
import { readMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import { FakeCp2110 } from '../../../src/transport/testing/fake-hid.js';
import { MemoryHub } from '../../../src/transport/testing/memory.js';
import { eventually } from '../../helpers/eventually.js';
import { encoderContract } from './contract.js';
import { keyJob, makeDriver, type Rig, run } from './rig.js';

/** The simulator behind a fake CP2110 bridge: HID reports on the host side, bytes on the UART side. */
function hidRig(): Rig & { fake: FakeCp2110 } {
  const hub = new MemoryHub();
  const sim = new EncoderSimulator({ rooms: ['101', '102', '103'], encoderIds: ['E1'] });
  sim.serve(hub, 'uart');
  const fake = new FakeCp2110({ serialNumber: 'ENC42', uart: () => hub.connect('uart'), inputChunk: 5 });
  return {
    sim,
    fake,
    transport: { transport: 'hid', serialNumber: 'ENC42', baudRate: 19200 },
    io: createTransportFactory({ log: silentLogger, loadHid: async () => FakeCp2110.module(fake) }),
    dispose: async () => hub.unplug('uart'),
  };
}

encoderContract('a CP2110 HID bridge (fake device)', async () => hidRig());

describe('salto-encoder over HID', () => {
  it('configures the bridge UART and sends the frames as numbered reports', async () => {
    const rig = hidRig();
    const driver = makeDriver(rig);
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok).toBe(true);
    expect(rig.fake.uartConfig).toEqual({
      baudRate: 19200,
      parity: 'none',
      flowControl: false,
      dataBits: 8,
      stopBits: 1,
    });
    const frameReport = rig.fake.outputReports.find((r) => r[1] === 0x02);
    expect(frameReport?.[0]).toBe((frameReport?.length ?? 0) - 1);
    await driver.close();
  });

  it('survives the USB cable being pulled between jobs', async () => {
    const rig = hidRig();
    const driver = makeDriver(rig);
    await driver.open(new AbortController().signal);
    rig.fake.unplug();
    await eventually(
      'unplug noticed',
      () => english(readMessage(driver.status().summary)) === 'unplugged — waiting for it',
    );
    const meanwhile = await run(driver, keyJob({ keyCount: 1 }));
    expect(meanwhile.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    expect(meanwhile.ctx.checkpoints).toEqual([]);
    rig.fake.replug();
    await eventually('reconnect after replug', () => driver.status().connected);
    const after = await run(driver, keyJob({ keyCount: 2 }));
    expect(after.ok && after.result.notes).toBe('2 keys for room 101');
    await driver.close();
  });
});
