import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saltoMessages } from '../../../drivers/salto-encoder/messages.js';
import type { Driver } from '../../../src/drivers-api/types.js';
import { keyJob, makeDriver, type Rig, run } from './rig.js';

/**
 * The driver's behaviour, the same over every transport: the simulator is reached through a
 * memory endpoint, a socat pseudo-terminal pair or TCP, and each case checks the outcome, the
 * Notes, the progress values and what the simulated encoder recorded.
 */
export function encoderContract(label: string, makeRig: () => Promise<Rig>): void {
  describe(`salto-encoder over ${label}`, () => {
    let rig: Rig;
    let driver: Driver;

    beforeEach(async () => {
      rig = await makeRig();
      driver = makeDriver(rig);
    });

    afterEach(async () => {
      await driver.close();
      await rig.dispose();
    });

    it('cuts every card: CN then CC copies, one milestone per card, checkpoints around each', async () => {
      const out = await run(driver, keyJob());
      expect(out.ok && out.result.notes).toBe('3 keys for room 101');
      expect(out.ctx.progressSeen).toEqual([
        { fraction: 1 / 3, milestone: true },
        { fraction: 2 / 3, milestone: true },
        { fraction: 1, milestone: true },
      ]);
      expect(out.ctx.checkpoints.map((c) => c as { confirmed: number; inFlight?: number })).toMatchObject([
        { confirmed: 0, inFlight: 1 },
        { confirmed: 1 },
        { confirmed: 1, inFlight: 2 },
        { confirmed: 2 },
        { confirmed: 2, inFlight: 3 },
        { confirmed: 3 },
      ]);
      expect(rig.sim.cards.map((c) => c.command)).toEqual(['CN', 'CC', 'CC']);
      expect(rig.sim.cards[0]).toMatchObject({
        encoderId: 'E1',
        rooms: ['101'],
        validFrom: '1400211126',
        validUntil: '1100231126',
        printLines: ['Ann Smith', 'Res. 4711', '21/11 - 23/11'],
        eject: 'eject',
      });
      expect(out.ok && out.result.details).toMatchObject({
        keys: 3,
        serials: rig.sim.cards.map((c) => c.serial),
      });
      const status = driver.status();
      expect([status.connected, status.summary, status.facts.cardsCut]).toEqual([
        true,
        saltoMessages.ready(),
        3,
      ]);
      expect(status.lastContact).toBeTypeOf('number');
    });

    it('resends after a NAK', async () => {
      rig.sim.enqueue('nak-then-ack');
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.ok && out.result.notes).toBe('1 key for room 101');
      expect(rig.sim.requests.map((r) => r.behaviour)).toEqual(['nak-then-ack', 'normal']);
      expect(rig.sim.cards).toHaveLength(1);
    });

    it('backs off while the encoder is busy (OV), then cuts', async () => {
      rig.sim.enqueue('busy', 'busy');
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.ok).toBe(true);
      expect(rig.sim.requests).toHaveLength(3);
      expect(rig.sim.cards).toHaveLength(1);
    });

    it('gives up on a busy encoder after busyRetries', async () => {
      await driver.close();
      driver = makeDriver(rig, { busyRetries: 1 });
      rig.sim.defaultBehaviour = 'busy';
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.ok).toBe(false);
      expect(out.error).toMatchObject({
        code: 'DEVICE_BUSY',
        retryable: true,
        notes: 'The encoder is busy with another card; wait a moment and try again.',
      });
      expect(rig.sim.requests).toHaveLength(2);
    });

    it('reports an encoder the lock software cannot reach (NC)', async () => {
      rig.sim.enqueue('offline');
      const out = await run(driver, keyJob());
      expect(out.error).toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: true });
      expect(out.error?.notes).toMatch(/cannot reach the encoder/);
      expect(out.progress).toEqual([]);
      expect(out.ctx.checkpoints.at(-1)).toMatchObject({ confirmed: 0 });
      expect(out.ctx.checkpoints.at(-1)).not.toHaveProperty('inFlight');
    });

    it('stops at the card nobody inserted (ED) and says how many were cut', async () => {
      rig.sim.enqueue('normal', 'no-card');
      const out = await run(driver, keyJob());
      expect(out.error).toMatchObject({ code: 'DEVICE_TIMEOUT', retryable: false });
      expect(out.error?.notes).toBe(
        'The encoder waited too long for a card; insert a blank card when asked and try again. 1 of 3 keys was cut before this.',
      );
      expect(out.error?.details).toMatchObject({ replyCode: 'ED', confirmed: 1, total: 3 });
      expect(out.progress).toEqual([1 / 3]);
    });

    it('tells the receptionist to insert a card (EP)', async () => {
      rig.sim.enqueue({ reply: 'EP' });
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.error).toMatchObject({
        code: 'NO_CARD',
        notes: 'No card in the encoder — insert a blank card and try again.',
      });
    });

    it('reports a room the lock software does not know (TD)', async () => {
      const out = await run(driver, keyJob({ keyCount: 1, lockIds: ['999'] }));
      expect(out.error).toMatchObject({
        code: 'ROOM_UNKNOWN',
        notes: 'The lock software does not know room 999; check the room-to-lock mapping.',
      });
      expect(rig.sim.cards).toHaveLength(0);
    });

    it('asks again for a reply with a bad LRC and cuts the card once', async () => {
      rig.sim.enqueue('bad-lrc');
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.ok).toBe(true);
      expect(rig.sim.cards).toHaveLength(1);
    });

    it('reassembles replies split across writes and skips garbage before STX', async () => {
      rig.sim.enqueue('split', 'garbage');
      const out = await run(driver, keyJob({ keyCount: 2 }));
      expect(out.ok && out.result.notes).toBe('2 keys for room 101');
      expect(out.progress).toEqual([0.5, 1]);
    });

    it('does not claim a card the encoder never confirmed', async () => {
      await driver.close();
      driver = makeDriver(rig, { cardTimeoutMs: 300 });
      rig.sim.enqueue('silent');
      const out = await run(driver, keyJob({ keyCount: 1 }));
      expect(out.error).toMatchObject({ code: 'DEVICE_TIMEOUT', retryable: false });
      expect(out.error?.notes).toBe(
        'The encoder did not confirm key 1 of 1 for room 101, which may have been written; test that card before handing it out.',
      );
      expect(out.ctx.checkpoints.at(-1)).toMatchObject({ confirmed: 0, inFlight: 1 });
    });

    it('stops between cards when cancelled, keeping the card already in the encoder', async () => {
      const abort = new AbortController();
      rig.sim.onRequest((r) => {
        if (r.index === 2) abort.abort();
      });
      const out = await run(driver, keyJob(), abort.signal);
      expect(out.error).toMatchObject({
        code: 'ABORTED',
        notes: 'Cancelled; 2 of 3 keys were cut for room 101.',
      });
      expect(rig.sim.cards).toHaveLength(2);
      expect(out.progress).toEqual([1 / 3, 2 / 3]);
    });

    it('continues from the checkpoint: confirmed cards are never cut twice', async () => {
      const out = await run(
        driver,
        keyJob({}, { attempt: 2, checkpoint: { v: 1, confirmed: 2, serials: ['AB12'] } }),
      );
      expect(out.ok && out.result.notes).toBe('3 keys for room 101');
      expect(rig.sim.cards.map((c) => c.command)).toEqual(['CC']);
      expect(out.progress).toEqual([1]);
      expect(out.ok && out.result.details?.serials).toEqual(['AB12', rig.sim.cards[0]?.serial]);
    });
  });
}
