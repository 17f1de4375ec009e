import { describe, expect, it } from 'vitest';
import { saltoEncoderFactory } from '../../../drivers/salto-encoder/index.js';
import { saltoMessages, saltoTransportWords } from '../../../drivers/salto-encoder/messages.js';
import { EncoderSimulator } from '../../../drivers/salto-encoder/simulator/index.js';
import { keysForRoomsWords } from '../../../src/drivers-api/messages.js';
import { AgentError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import { MemoryHub } from '../../../src/transport/testing/memory.js';
import { testDriverContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { encoderContract } from './contract.js';
import { keyJob, makeDriver, type Rig, run } from './rig.js';

const words = (text: Message) => english(text);

function memoryRig(
  simOptions: ConstructorParameters<typeof EncoderSimulator>[0] = {},
): Rig & { hub: MemoryHub } {
  const hub = new MemoryHub();
  const sim = new EncoderSimulator({ rooms: ['101', '102', '103'], encoderIds: ['E1'], ...simOptions });
  sim.serve(hub, 'encoder');
  return {
    hub,
    sim,
    transport: { transport: 'memory', name: 'encoder' },
    io: createTransportFactory({ log: silentLogger, memory: hub }),
    dispose: async () => hub.unplug('encoder'),
  };
}

encoderContract('a memory endpoint', async () => memoryRig());

describe('salto-encoder over memory: link life', () => {
  it('open() probes the encoder; status says ready', async () => {
    const rig = memoryRig();
    const driver = makeDriver(rig);
    expect(driver.status()).toMatchObject({ connected: false, summary: saltoMessages.notConnectedYet() });
    await driver.open(new AbortController().signal);
    await driver.open(new AbortController().signal);
    expect(driver.status()).toMatchObject({
      connected: true,
      summary: saltoMessages.ready(),
      facts: { transport: saltoTransportWords.memory() },
    });
    await driver.close();
    await driver.close();
  });

  it('open() while unplugged rejects; reconcile still answers, jobs fail fast, the link comes back by itself', async () => {
    const rig = memoryRig();
    rig.hub.unplug('encoder');
    const driver = makeDriver(rig);
    await expect(driver.open(new AbortController().signal)).rejects.toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      retryable: true,
    });
    expect(driver.status()).toMatchObject({ connected: false, summary: saltoMessages.unpluggedWaiting() });
    const crashed = keyJob({}, { checkpoint: { v: 1, confirmed: 2, serials: [] } });
    expect((await driver.reconcile(crashed, new AbortController().signal)).outcome).toBe('failed');
    const meanwhile = await run(driver, keyJob());
    expect(meanwhile.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: true });
    expect(meanwhile.ctx.checkpoints).toEqual([]);
    rig.sim.serve(rig.hub, 'encoder');
    await eventually('background reconnect', () => driver.status().connected);
    expect(driver.status().summary).toEqual(saltoMessages.ready());
    await driver.close();
  });

  it('survives an unplug mid-job: reports the uncertain card, reconnects, continues from the checkpoint', async () => {
    const rig = memoryRig();
    const driver = makeDriver(rig);
    rig.sim.enqueue('normal', 'silent');
    rig.sim.onRequest((r) => {
      if (r.index === 2) rig.hub.unplug('encoder');
    });
    const first = await run(driver, keyJob());
    expect(first.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: false });
    expect(first.error?.notes).toBe(
      'The encoder was disconnected while writing key 2 of 3 for room 101; test that card before handing it out. 1 of 3 keys was cut before this.',
    );
    expect(first.progress).toEqual([1 / 3]);
    await eventually(
      'unplugged status',
      () => words(driver.status().summary) === 'unplugged — waiting for it',
    );
    expect(driver.status().warnings.map(words)).toEqual([
      'The encoder is unplugged or not answering; the agent reconnects by itself as soon as it is back.',
    ]);

    rig.sim.serve(rig.hub, 'encoder');
    await eventually('reconnect after replug', () => driver.status().connected);
    const second = await run(driver, keyJob({}, { attempt: 2, checkpoint: first.ctx.checkpoints.at(-1) }));
    expect(second.ok && second.result.notes).toBe('3 keys for room 101');
    expect(second.progress).toEqual([2 / 3, 1]);
    expect(rig.sim.cards.map((c) => c.command)).toEqual(['CN', 'CC', 'CC']);
    await driver.close();
  });

  it('reports the card as uncertain when the request went out and its ACK never came', async () => {
    // An encoder that answers the ENQ probe, then takes the card request without a word: its ACK
    // lost on the line, or late from a busy device. It may be writing the card.
    const hub = new MemoryHub();
    let requests = 0;
    hub.listen('encoder', (device) => {
      void device.open();
      device.onData((chunk) => {
        if (chunk.includes(0x05)) void device.write(Buffer.of(0x06));
        if (chunk.includes(0x02)) requests++;
      });
    });
    const driver = makeDriver(
      {
        transport: { transport: 'memory', name: 'encoder' },
        io: createTransportFactory({ log: silentLogger, memory: hub }),
      },
      { ackTimeoutMs: 50 },
    );
    const outcome = await run(driver, keyJob());
    expect(requests).toBe(1);
    expect(outcome.error).toMatchObject({ code: 'DEVICE_TIMEOUT', retryable: false });
    expect(outcome.error?.notes).toBe(
      'The encoder did not confirm key 1 of 3 for room 101, which may have been written; test that card before handing it out.',
    );
    await driver.close();
  });

  it('accepts replies whose LRC is 0x0D ("not computed")', async () => {
    const rig = memoryRig({ replyLrc: 'skip' });
    const out = await run(makeDriver(rig), keyJob({ keyCount: 1 }));
    expect(out.ok).toBe(true);
  });

  it('copies only (CC) when firstCard is copy, and honours eject, access codes and room mapping', async () => {
    const rig = memoryRig({ rooms: ['Suite Città'] });
    const driver = makeDriver(rig, {
      firstCard: 'copy',
      eject: 'retain',
      grantedAccess: [1, 2],
      deniedAccess: [62],
      rooms: { '101': 'Suite Città' },
      returnSerialNumbers: false,
    });
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok && out.result.details).toEqual({ keys: 1, rooms: ['101'], encoderId: 'E1' });
    expect(rig.sim.cards[0]).toMatchObject({
      command: 'CC',
      eject: 'retain',
      rooms: ['Suite Città'],
      grantedAccess: [1, 2],
      deniedAccess: [62],
      serialReturn: 'none',
    });
  });

  it('stops waiting out a busy encoder when cancelled', async () => {
    const rig = memoryRig();
    const driver = makeDriver(rig, { busyBackoffMs: 60_000 });
    rig.sim.defaultBehaviour = 'busy';
    const abort = new AbortController();
    rig.sim.onRequest(() => setImmediate(() => abort.abort()));
    const out = await run(driver, keyJob(), abort.signal);
    expect(out.error).toMatchObject({ code: 'ABORTED', notes: 'Cancelled before any key was cut.' });
    expect(rig.sim.requests).toHaveLength(1);
    await driver.close();
  });

  it('refuses a malformed command without talking to the encoder', async () => {
    const rig = memoryRig();
    const out = await run(makeDriver(rig), keyJob({ lockIds: [] }));
    expect(out.error).toMatchObject({ code: 'COMMAND_INVALID' });
    expect(rig.sim.requests).toHaveLength(0);
  });
});

describe('salto-encoder reconcile after a crash', () => {
  const rig = memoryRig();
  const signal = new AbortController().signal;

  it('done when every card was confirmed', async () => {
    const r = await makeDriver(rig).reconcile(
      keyJob({}, { checkpoint: { v: 1, confirmed: 3, serials: [] } }),
      signal,
    );
    expect(r).toEqual({
      outcome: 'done',
      result: { notes: keysForRoomsWords(3, ['101']), details: { keys: 3, rooms: ['101'], encoderId: 'E1' } },
    });
  });

  it('failed with what was cut, by default', async () => {
    const r = await makeDriver(rig).reconcile(
      keyJob({}, { checkpoint: { v: 1, confirmed: 2, serials: [] } }),
      signal,
    );
    expect(r.outcome).toBe('failed');
    expect(r.outcome === 'failed' && english(r.error.notes)).toBe(
      '2 of 3 keys were cut before the agent restarted; cut the rest again if needed.',
    );
    expect(r.outcome === 'failed' && messageRenderer('it').render(r.error.notes)).toBe(
      'Prima del riavvio dell’agente sono state codificate 2 chiavi su 3; se servono, codificare di nuovo le altre.',
    );
  });

  it('failed, naming the card that may have been written', async () => {
    const job = keyJob({}, { checkpoint: { v: 1, confirmed: 1, inFlight: 2, serials: [] } });
    const r = await makeDriver(rig).reconcile(job, signal);
    expect(r.outcome === 'failed' && english(r.error.notes)).toBe(
      '1 of 3 keys was cut before the agent restarted; cut the rest again if needed. Card 2 was being written at that moment; test it before handing it out.',
    );
    const first = keyJob({}, { checkpoint: { v: 1, confirmed: 0, inFlight: 1, serials: [] } });
    const r0 = await makeDriver(rig).reconcile(first, signal);
    expect(r0.outcome === 'failed' && r0.error).toMatchObject({ code: 'STATE_UNKNOWN' });
  });

  it('unknown, saying how many cards may have been cut, when the checkpoint cannot be read', async () => {
    for (const checkpoint of [
      null,
      'garbage',
      { v: 1, confirmed: '2', serials: [] },
      { v: 1, confirmed: 4, serials: [] },
    ]) {
      const verdict = await makeDriver(rig).reconcile(keyJob({}, { checkpoint }), signal);
      expect(verdict.outcome).toBe('unknown');
      expect(verdict.outcome === 'unknown' && english(verdict.reason)).toBe(
        'The agent cannot read how far it got with 3 keys for room 101: up to 3 keys may have been cut. Test the cards from the encoder before handing them out, and cut the keys again if needed.',
      );
    }
  });

  it('execute refuses to start over from an unreadable checkpoint: no card is cut', async () => {
    const fresh = memoryRig();
    const driver = makeDriver(fresh, { cutRemainingAfterCrash: true });
    const out = await run(driver, keyJob({ keyCount: 1 }, { attempt: 2, checkpoint: { v: 1, inFlight: 1 } }));
    expect(out.error).toMatchObject({
      code: 'STATE_UNKNOWN',
      notes:
        'The agent cannot read how far it got with 1 key for room 101: the key may have been cut. Test the cards from the encoder before handing them out, and cut the keys again if needed.',
    });
    expect(fresh.sim.requests).toHaveLength(0);
    expect(out.ctx.checkpoints).toEqual([]);
    await driver.close();
  });

  it('not-done with cutRemainingAfterCrash, and execute then cuts only the rest', async () => {
    const checkpoint = { v: 1, confirmed: 2, serials: [] };
    const driver = makeDriver(rig, { cutRemainingAfterCrash: true });
    expect(await driver.reconcile(keyJob({}, { checkpoint }), signal)).toEqual({ outcome: 'not-done' });
    const out = await run(driver, keyJob({}, { checkpoint, attempt: 2 }));
    expect(out.ok && out.result.notes).toBe('3 keys for room 101');
    expect(rig.sim.cards.map((c) => c.command)).toEqual(['CC']);
    await driver.close();
  });
});

describe('salto-encoder open() errors staff must fix', () => {
  it('rejects a HID setup without permission instead of pretending to wait', async () => {
    const io = createTransportFactory({
      log: silentLogger,
      loadHid: async () => {
        throw new AgentError('DEVICE_UNAVAILABLE', 'node-hid cannot be loaded', { retryable: false });
      },
    });
    const driver = saltoEncoderFactory.create(
      saltoEncoderFactory.configSchema.parse({ transport: 'hid' }),
      testDriverContext({ io }),
    );
    await expect(driver.open(new AbortController().signal)).rejects.toMatchObject({ retryable: false });
    await driver.close();
  });
});
