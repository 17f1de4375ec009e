import { afterEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_VERSION } from '../../../drivers/epson-fpmate/checkpoint.js';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { driverRegistry } from '../../../drivers/index.js';
import { createDevices } from '../../../src/agent/device-drivers/index.js';
import { systemClock } from '../../../src/clock.js';
import { type Journal, openJournal } from '../../../src/commands/journal/journal.js';
import { OutboxQueue } from '../../../src/commands/outbox/queue.js';
import { DeviceCalls, newJob } from '../../../src/commands/run/device-calls.js';
import { parseConfig } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';
import { messageRenderer } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { orderItem, payment, QUICK_DRIVER, type Rig, rig, saleJob } from './helpers.js';

/**
 * Issue 23: `CHECKPOINT_VERSION` is the driver's real checkpoint version. The factory declares it,
 * the agent's device carries it into the core's envelope (`{driver, version, data}`), and the
 * driver's checkpoints say it in `v`; so raising it makes the core refuse older checkpoints —
 * the job is unknown ("check the device"), never not-done (which would print the receipt again).
 */

const items = [orderItem('i1', { unitGross: 45.5, units: 2, rate: 22 })];
const payments = [payment('p1', 'CashPayment', 91)];
const RT = 'f1000000-0000-4000-8000-0000000000aa';

let r: Rig | undefined;
let journal: Journal | undefined;
afterEach(async () => {
  journal?.close();
  journal = undefined;
  await r?.close();
  r = undefined;
});

/** The Epson device as the agent builds it from its configuration, over `journal`. */
async function agentDevice(url: string, into: Journal) {
  const config = parseConfig({
    version: 1,
    platform: { url: 'http://127.0.0.1:1' },
    journal: { path: ':memory:' },
    devices: [
      {
        id: RT,
        type: 'FiscalMachine',
        driver: 'epson-fpmate',
        options: { url, ...QUICK_DRIVER, dailyClosure: { enabled: false } },
      },
    ],
  });
  const [device] = await createDevices(config, {
    registry: driverRegistry,
    journal: into,
    platform: { orderItems: async () => items, payments: async () => payments },
    io: {
      create: () => {
        throw new Error('no transports in this test');
      },
    },
    clock: systemClock,
    log: silentLogger,
  });
  if (!device) throw new Error('no device built');
  return device;
}

/** A receipt the printer printed while its answer was lost: the checkpoint stored before sending. */
async function sendingCheckpoint(rig: Rig): Promise<unknown> {
  await rig.sim.setFault('dropAfterPrint', true);
  const ectx = recordingExecuteContext();
  await rig.driver.execute(saleJob(), ectx);
  await rig.sim.setFault('dropAfterPrint', false);
  const sending = ectx.checkpoints.find((c) => (c as { phase: string }).phase === 'sending');
  expect(ectx.checkpoints.map((c) => (c as { v: number }).v)).toEqual(
    ectx.checkpoints.map(() => CHECKPOINT_VERSION),
  );
  return sending;
}

/** Journals the sale as started on `device`, holding `envelope` as its checkpoint; asks the core. */
async function reconcileWith(
  device: Awaited<ReturnType<typeof agentDevice>>,
  into: Journal,
  envelope: unknown,
) {
  const { command } = saleJob('f1');
  into.insert(
    {
      id: 'f1',
      deviceId: device.id,
      deviceName: device.name,
      deviceType: 'FiscalMachine',
      kind: command.data.kind,
      source: command.source,
      command,
      createdUtc: command.createdUtc,
      seenAt: systemClock.now(),
    },
    { machine: { phase: 'running', state: 'Processing', attempt: 1 }, at: systemClock.now() },
  );
  into.setCheckpoint('f1', envelope);
  const record = into.get('f1');
  if (!record) throw new Error('f1 not journaled');
  const calls = new DeviceCalls({
    journal: into,
    outbox: new OutboxQueue(into, messageRenderer('en')),
    clock: systemClock,
    log: silentLogger,
    emit: () => undefined,
    progressIntervalMs: 1000,
  });
  return calls.reconcile(device, newJob('f1', device.id), record, 0);
}

describe('epson-fpmate checkpoint version', () => {
  it('is what the factory declares and what the agent puts on the device the core reads checkpoints for', async () => {
    r = await rig({ items, payments });
    journal = openJournal(':memory:');
    expect(epsonFpmateFactory.checkpointVersion).toBe(CHECKPOINT_VERSION);
    expect((await agentDevice(r.sim.url, journal)).checkpointVersion).toBe(CHECKPOINT_VERSION);
  });

  it('a checkpoint of another version ends the job as unknown without asking the printer, never not-done', async () => {
    r = await rig({ items, payments });
    const sending = await sendingCheckpoint(r);
    journal = openJournal(':memory:');
    const device = await agentDevice(r.sim.url, journal);
    const asked = r.sim.requests.length;
    const event = await reconcileWith(device, journal, {
      driver: 'epson-fpmate',
      version: CHECKPOINT_VERSION + 1,
      data: sending,
    });
    expect(event).toMatchObject({ type: 'reconciled', outcome: 'unknown' });
    expect(r.sim.requests.length).toBe(asked);
  });

  it('the same checkpoint at the driver’s version is handed to it, which finds the receipt printed once', async () => {
    r = await rig({ items, payments });
    const sending = await sendingCheckpoint(r);
    journal = openJournal(':memory:');
    const device = await agentDevice(r.sim.url, journal);
    const event = await reconcileWith(device, journal, {
      driver: 'epson-fpmate',
      version: CHECKPOINT_VERSION,
      data: sending,
    });
    expect(event).toMatchObject({ type: 'reconciled', outcome: 'done' });
    expect(r.sim.requests.filter((q) => q === 'printerFiscalReceipt')).toHaveLength(1);
    await device.driver.close();
  });
});
