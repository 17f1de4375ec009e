import { afterEach, describe, expect, it } from 'vitest';
import { fieldOf } from '../../../drivers/fias-lock/records.js';
import { numericFacts } from '../../../src/drivers-api/facts.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { eventually } from '../../helpers/eventually.js';
import { type FiasRig, fiasRig, keyJob, live, run } from './rig.js';

/**
 * Key requests through a FIAS lock server, against the lock-server simulator: one KR per card
 * (`KTN` then `KTD`, K# 1; IFC8 FIAS specification 2.20.23 p.63, p.65–66), the fields the lock
 * server's `LR|RIKR` asks for in its order (p.11, p.20), dates in the property's local time with
 * the departure time as `HH:MM` (p.63), the answers of Appendix B (p.103–104) told to staff, and
 * at most once: a card whose answer is lost is reported as maybe written, never asked for again.
 */

let rig: FiasRig | undefined;

afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

async function linked(
  simOptions: Parameters<typeof fiasRig>[0] = {},
  driverOptions: Record<string, unknown> = {},
) {
  rig = await fiasRig(simOptions);
  const driver = await rig.linked(driverOptions);
  await rig.sim.whenAlive();
  return { rig, driver };
}

const keyTypes = (r: FiasRig) => r.sim.cards.map((c) => c.keyType);

describe('fias-lock: key requests', () => {
  it('one key: a KTN with the guest, the stay in local time with minutes, the encoder and the reservation', async () => {
    const { rig, driver } = await linked();
    // 10:00:30Z on 23 Nov is 11:00:30 in Rome: the departure rounds up to 11:01.
    const out = await run(driver, keyJob({ keyCount: 1, endUtc: '2026-11-23T10:00:30Z' }));
    expect(out.ok ? out.result.notes : out.error.message).toBe('1 key for room 101');
    expect(messageRenderer('it').render(out.said)).toBe('1 chiave per la camera 101');
    expect(out.progress).toEqual([1]);
    expect(rig.sim.cards).toHaveLength(1);
    expect(rig.sim.cards[0]).toMatchObject({
      keyType: 'N',
      encoder: '2',
      workstation: 'FRONTDESK',
      room: '101',
      suite: [],
      reservation: '88123',
      guest: 'Nile, Anna',
      arrival: '261121',
      departure: '261123',
      departureTime: '11:01',
      count: '1',
    });
    // The fields in the order of the simulator's LR|RIKR (its default list), DA/TI stamped.
    expect(rig.sim.cards[0]?.fields.map(([id]) => id)).toEqual([
      'WS',
      'KC',
      'RN',
      'KT',
      'K#',
      'G#',
      'GN',
      'GA',
      'GD',
      'DT',
      'DA',
      'TI',
    ]);
    expect(out.ctx.checkpoints).toEqual([
      { v: 1, total: 1, confirmed: 0, inFlight: 1 },
      { v: 1, total: 1, confirmed: 1 },
    ]);
  });

  it('three keys: one request per card, KTN then KTD, a milestone per card', async () => {
    const { rig, driver } = await linked();
    const out = await run(driver, keyJob({ keyCount: 3 }));
    expect(out.ok ? out.result.notes : out.error.message).toBe('3 keys for room 101');
    expect(keyTypes(rig)).toEqual(['N', 'D', 'D']);
    expect(rig.sim.requests).toHaveLength(3);
    expect(out.ctx.progressSeen).toEqual([
      { fraction: 1 / 3, milestone: true },
      { fraction: 2 / 3, milestone: true },
      { fraction: 1, milestone: true },
    ]);
    const status = driver.status();
    expect(status.facts.keysCut).toBe(3);
    expect(english(status.facts.lastKey as never)).toBe('3 keys for room 101');
    expect(Object.fromEntries(numericFacts(status.facts))).toMatchObject({ keysCut: 3, linkUp: 1 });
    expect(numericFacts(status.facts).some(([name]) => name === 'lastKeyAt')).toBe(true);
  });

  it('duplicate keys (firstKey: duplicate): every request is KTD, earlier keys stay valid', async () => {
    const { rig, driver } = await linked({}, { firstKey: 'duplicate' });
    expect((await run(driver, keyJob({ keyCount: 2 }))).ok).toBe(true);
    expect(keyTypes(rig)).toEqual(['D', 'D']);
  });

  it('several rooms go as RN plus SI (suite information); a lock server that did not ask for SI gets no key', async () => {
    const { rig, driver } = await linked();
    expect((await run(driver, keyJob({ keyCount: 1, lockIds: ['201', 'SPA', 'GYM'] }))).ok).toBe(true);
    expect(rig.sim.cards[0]).toMatchObject({ room: '201', suite: ['SPA', 'GYM'] });
    await rig.dispose();

    const noSuites = await linked({
      linkRecords: { KR: ['KC', 'RN', 'KT', 'WS'], KA: ['AS', 'CT', 'KC', 'WS'] },
    });
    const out = await run(noSuites.driver, keyJob({ keyCount: 1, lockIds: ['201', 'SPA'] }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'COMMAND_INVALID',
      'The lock server takes one room per key (it did not ask for extra rooms, SI), and this key is for rooms 201 and SPA; cut keys room by room, or ask IT to enable suites on the lock server’s PMS interface.',
    ]);
    expect(noSuites.rig.sim.requests).toEqual([]);
    expect(out.ctx.checkpoints).toEqual([]);
  });

  it('sends only the fields the lock server described, in its order; DT as HHMMSS when configured', async () => {
    const { rig, driver } = await linked(
      { linkRecords: { KR: ['KC', 'RN', 'KT', 'GD', 'DT', 'WS'] } },
      { departureTime: 'HHMMSS', encoderId: 'ENC7', workstation: 'FO-PC1' },
    );
    expect((await run(driver, keyJob({ keyCount: 1 }))).ok).toBe(true);
    expect(rig.sim.cards[0]?.fields).toEqual([
      ['KC', 'ENC7'],
      ['RN', '101'],
      ['KT', 'N'],
      ['GD', '261123'],
      ['DT', '110000'],
      ['WS', 'FO-PC1'],
    ]);
  });

  it('a refused room: Error with the lock server’s reason in English and Italian; nothing written, nothing resent', async () => {
    const { rig, driver } = await linked({ rooms: ['101', '102'] });
    const out = await run(driver, keyJob({ keyCount: 2, lockIds: ['999'] }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'ROOM_UNKNOWN',
      'The lock server does not know room 999 (INVALID ROOM); check the room-to-lock mapping.',
    ]);
    expect(messageRenderer('it').render(out.said)).toBe(
      'Il server delle serrature non conosce la camera 999 (INVALID ROOM): controllare l’abbinamento tra camere e serrature.',
    );
    expect(rig.sim.cards).toEqual([]);
    expect(rig.sim.requests).toHaveLength(1);
    expect(out.ctx.checkpoints.at(-1)).toEqual({ v: 1, total: 2, confirmed: 0 });
    expect(
      await driver.reconcile(
        { ...keyJob({ keyCount: 2, lockIds: ['999'] }), checkpoint: out.ctx.checkpoints.at(-1) },
        live(),
      ),
    ).toEqual({
      outcome: 'not-done',
    });
  });

  it('a refusal after some cards (DN with the lock server’s text) says how many were cut', async () => {
    const { rig, driver } = await linked();
    rig.sim.enqueue('ok', { answer: 'DN', text: 'Guest checked out' });
    const out = await run(driver, keyJob({ keyCount: 3 }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'DEVICE_ERROR',
      'The lock server refused the key for room 101: Guest checked out. 1 of 3 keys was cut before this.',
    ]);
    expect(rig.sim.cards).toHaveLength(1);
  });

  it('encoder busy (BY): asked again after a pause, as the same key type; still busy after the retries: DEVICE_BUSY', async () => {
    const { rig, driver } = await linked({}, { busyRetries: 2 });
    rig.sim.enqueue({ answer: 'BY', text: 'Encoder busy' }, 'ok');
    expect((await run(driver, keyJob({ keyCount: 1 }))).ok).toBe(true);
    expect(rig.sim.requests.map((r) => fieldOf(r.record, 'KT'))).toEqual(['N', 'N']);
    rig.sim.enqueue({ answer: 'BY' }, { answer: 'RY' }, { answer: 'BY' });
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'DEVICE_BUSY',
      'The encoder is busy, or the lock server cannot find it (no details given); wait a moment, then try again.',
    ]);
    expect(rig.sim.cards).toHaveLength(1);
  });

  it('the link drops while card 2 is written: Error "may have been written, test it", never resent; a restart says the same', async () => {
    const { rig, driver } = await linked();
    rig.sim.enqueue('ok', 'drop-after-write');
    const job = keyJob({ keyCount: 3 });
    const out = await run(driver, job);
    expect(out.ok ? 'ok' : [out.error.code, out.error.retryable, out.error.notes]).toEqual([
      'DEVICE_UNAVAILABLE',
      false,
      'The lock server’s link dropped while key 2 of 3 for room 101 was being cut; that card may have been written: test it before handing it out. 1 of 3 keys was cut before this.',
    ]);
    expect(rig.sim.cards).toHaveLength(2);
    expect(rig.sim.requests).toHaveLength(2);
    const last = out.ctx.checkpoints.at(-1);
    expect(last).toEqual({ v: 1, total: 3, confirmed: 1, inFlight: 2 });
    const verdict = await rig.driver().reconcile({ ...job, attempt: 2, checkpoint: last }, live());
    expect(verdict.outcome).toBe('failed');
    if (verdict.outcome !== 'failed') return;
    expect(english(verdict.error.notes)).toBe(
      '1 of 3 keys was cut before the agent restarted; cut the rest again if needed. Card 2 was being written at that moment; test it before handing it out.',
    );
  });

  it('no answer in time: DEVICE_TIMEOUT "may have been written", never resent; a late answer is not taken for the next key', async () => {
    const { rig, driver } = await linked({ lateMs: 600 }, { answerTimeoutMs: 200 });
    rig.sim.enqueue('late');
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'DEVICE_TIMEOUT',
      'The lock server did not answer for key 1 of 1 for room 101; that card may have been written: test it before handing it out.',
    ]);
    expect(rig.sim.requests).toHaveLength(1);
    // The late KA arrives; it belongs to no request and is logged, not used.
    await eventually('the late answer is logged', () =>
      rig.log.lines.some((l) => l.includes('no request waits for')),
    );
    expect((await run(driver, keyJob({ keyCount: 1 }, { commandId: 'cmd-2' }))).ok).toBe(true);
  });

  it('a KeyCutterData.Type of another protocol ends before anything is sent', async () => {
    const { rig, driver } = await linked();
    const out = await run(
      driver,
      keyJob({ keyCount: 1, settings: { value: { Type: 'IndustryStandardProtocol' } } }),
    );
    expect(out.ok ? 'ok' : [out.error.code, out.error.notes]).toEqual([
      'COMMAND_INVALID',
      'This key command is for Industry Standard Protocol (the key cutter’s Data JSON says Type "IndustryStandardProtocol"), but this encoder speaks FIAS; no key was cut. Check the key cutter’s Data JSON on the platform, or which encoder the agent uses for it.',
    ]);
    expect(rig.sim.requests).toEqual([]);
    expect(out.ctx.checkpoints).toEqual([]);
    // Absent, unknown and FIAS's own Type are served.
    for (const settings of [{ value: {} }, { value: { Type: 'Dormakaba' } }, { value: { Type: 'FIAS' } }]) {
      expect((await run(driver, keyJob({ keyCount: 1, settings }))).ok).toBe(true);
    }
  });

  it('two encoders on one lock server share the link; their answers reach the right request', async () => {
    const { rig, driver } = await linked();
    const second = rig.driver({ encoderId: '5' });
    await second.open(live());
    const [a, b] = await Promise.all([
      run(driver, keyJob({ keyCount: 2 })),
      run(second, keyJob({ keyCount: 2, lockIds: ['102'] }, { commandId: 'cmd-2' })),
    ]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(rig.sim.connections).toBe(1);
    expect(rig.sim.cards.map((c) => `${c.encoder}:${c.room}`).sort()).toEqual([
      '2:101',
      '2:101',
      '5:102',
      '5:102',
    ]);
  });

  it('reconcile after a crash decides from the checkpoint alone', async () => {
    rig = await fiasRig();
    const driver = rig.driver();
    const job = keyJob({ keyCount: 3 });
    const at = (checkpoint: unknown) => driver.reconcile({ ...job, attempt: 2, checkpoint }, live());
    expect(await at(undefined)).toEqual({ outcome: 'not-done' });
    expect(await at({ v: 1, total: 3, confirmed: 0 })).toEqual({ outcome: 'not-done' });
    expect((await at({ v: 1, total: 3, confirmed: 3 })).outcome).toBe('done');
    const first = await at({ v: 1, total: 3, confirmed: 0, inFlight: 1 });
    expect(first.outcome === 'failed' && english(first.error.notes)).toBe(
      'The agent restarted while the first key for room 101 was being cut; test that card and cut the keys again if needed.',
    );
    const corrupt = await at({ v: 1, total: 3, confirmed: 1, inFlight: 3 });
    expect(corrupt.outcome === 'unknown' && english(corrupt.reason)).toMatch(
      /up to 3 keys may have been cut/,
    );
    expect(rig.sim.requests).toEqual([]);
  });
});
