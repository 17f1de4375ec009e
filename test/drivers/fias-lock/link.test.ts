import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecord, RecordDecoder, record } from '../../../drivers/fias-lock/records.js';
import { numericFacts } from '../../../src/drivers-api/facts.js';
import { isAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { eventually } from '../../helpers/eventually.js';
import { type FiasRig, fiasRig, keyJob, live, run } from './rig.js';

/**
 * The FIAS link as the agent runs it, against the lock-server simulator (and, where the lock
 * server must misbehave in ways the simulator does not, a raw socket): the handshake of the IFC8
 * FIAS specification 2.20.23 §8 (p.91–92: LS on connect; LD, LR…, LA; LA), the lock server
 * speaking first (p.91, a Hotek bridge; qbollen/PMSIface `FrmMain.cs`), alive checks both ways
 * (p.91, FAQ p.102), link end (p.28, p.94), a lost link waited for again (p.28), a lock server
 * absent at start, and the address check.
 */

let rig: FiasRig | undefined;
const raw: Socket[] = [];

afterEach(async () => {
  for (const s of raw.splice(0)) s.destroy();
  await rig?.dispose();
  rig = undefined;
});

const types = (records: ReadonlyArray<{ type: string }>) => records.map((r) => r.type);

/** A lock server written by hand: connects, records what it gets, sends what the test says. */
async function rawLockServer(
  port: number,
): Promise<{ socket: Socket; got: string[]; send(text: string): void }> {
  const socket = connect({ host: '127.0.0.1', port });
  raw.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  const got: string[] = [];
  const decoder = new RecordDecoder();
  socket.on('data', (chunk: Buffer) => {
    for (const e of decoder.push(chunk)) if (e.kind === 'record') got.push(e.record.type);
  });
  socket.on('error', () => undefined);
  return {
    socket,
    got,
    send: (text) => socket.write(Buffer.concat([Buffer.of(2), Buffer.from(text, 'latin1'), Buffer.of(3)])),
  };
}

describe('fias-lock: the link', () => {
  it('handshake as the specification prescribes: LS on connect, the lock server’s LD/LR/LA, then LA; status says so', async () => {
    rig = await fiasRig();
    const driver = rig.driver();
    const opening = driver.open(live());
    rig.sim.start();
    await opening;
    await rig.sim.whenAlive();
    // What the agent sent: LS at once (p.92), one LA closing the description (p.21), nothing else.
    expect(types(rig.sim.received)).toEqual(['LS', 'LA']);
    const status = driver.status();
    expect(status.connected).toBe(true);
    expect(english(status.summary)).toBe('ready (lock server linked)');
    expect(status.facts).toMatchObject({ linkUp: true, lockServerConnected: true, lockServerVersion: '1.0' });
    expect(english(status.facts.link as never)).toBe('alive');
    expect(Object.fromEntries(numericFacts(status.facts))).toMatchObject({
      linkUp: 1,
      lockServerConnected: 1,
      linkDrops: 0,
    });
  });

  it.each([
    ['ls-first', 'a Hotek bridge’s lock server sends LS first; a link never started is answered LS (p.27)'],
    ['ld-first', 'qbollen/PMSIface sends LD/LR/LA on connect and ignores LS'],
  ] as const)('a lock server that speaks first (%s): %s', async (opening, _why) => {
    rig = await fiasRig({ opening });
    const driver = await rig.linked();
    expect(rig.sim.alive || (await rig.sim.whenAlive())).toBe(true);
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok ? out.result.notes : out.error.notes).toBe('1 key for room 101');
  });

  it('an LD asking for RT gets an LC with the hotel id (and the timeouts for RT 128) before the LA', async () => {
    rig = await fiasRig({ requestType: 183 });
    await rig.linked({ hotelId: 'BELLAVISTA', answerTimeoutMs: 45_000 });
    await rig.sim.whenAlive();
    expect(types(rig.sim.received)).toEqual(['LS', 'LC', 'LA']);
    const lc = rig.sim.received[1];
    expect(lc?.fields).toEqual([
      ['PH', 'BELLAVISTA'],
      ['A0', '45;45'],
    ]);
  });

  it('the lock server’s alive check (LS while Alive) is answered LA; its own LAs are not answered (p.91)', async () => {
    rig = await fiasRig();
    const driver = await rig.linked();
    await rig.sim.whenAlive();
    const before = rig.sim.received.length;
    expect(await rig.sim.aliveCheck()).toBe(true);
    expect(types(rig.sim.received.slice(before))).toEqual(['LA']);
    expect(driver.status().connected).toBe(true);
  });

  it('the agent’s alive check: LA after silence, answered by the lock server; no answer drops the link', async () => {
    rig = await fiasRig();
    const driver = await rig.linked({ aliveCheckMs: 100, aliveTimeoutMs: 300 });
    const answeredBefore = rig.sim.received.filter((r) => r.type === 'LA').length;
    await eventually(
      'two alive checks of the agent',
      () => rig && rig.sim.received.filter((r) => r.type === 'LA').length >= answeredBefore + 2,
    );
    expect(driver.status().connected).toBe(true);
    await rig.sim.close();
    // A lock server that completes the handshake, then never says anything again.
    const peer = await rawLockServer(rig.port);
    await eventually('the agent’s LS', () => peer.got.includes('LS'));
    peer.send('LD|DA261004|TI120001|V#3.10|IFDL|');
    peer.send('LA|DA261004|TI120001|');
    await eventually('alive with the silent peer', () => driver.status().connected);
    await eventually('the link dropped after an unanswered alive check', () => {
      const s = driver.status();
      return !s.connected && s.facts.linkDrops === 2;
    });
  });

  it('a lock server that never finishes LD/LR/LA is disconnected after linkTimeoutMs', async () => {
    rig = await fiasRig();
    const driver = rig.driver({ linkTimeoutMs: 200, openWaitMs: 300 });
    const opening = driver.open(live()).catch((e: unknown) => e);
    const peer = await rawLockServer(rig.port);
    await eventually('the agent’s LS', () => peer.got.includes('LS'));
    expect(english(driver.status().summary)).toBe('lock server connected, starting the link');
    const closed = await new Promise<boolean>((resolve) => peer.socket.once('close', () => resolve(true)));
    expect(closed).toBe(true);
    const error = await opening;
    expect(isAgentError(error) && error.code).toBe('DEVICE_UNAVAILABLE');
  });

  it('lock server absent at start: open() says so, the page says where it must connect; once it connects the keys are cut', async () => {
    rig = await fiasRig();
    const driver = rig.driver({ openWaitMs: 100 });
    const error = await driver.open(live()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAgentError(error) && [error.code, error.retryable]).toEqual(['DEVICE_UNAVAILABLE', true]);
    if (!isAgentError(error)) throw error;
    expect(english(error.notes)).toBe(
      `The lock server is not connected to the agent; check that it is running and that its PMS (FIAS) interface points at 127.0.0.1:${rig.port}. The agent keeps waiting for it.`,
    );
    const waiting = driver.status();
    expect([waiting.connected, english(waiting.summary), waiting.warnings.map(english)]).toEqual([
      false,
      'waiting for the lock server to connect',
      [english(error.notes)],
    ]);
    expect(numericFacts(waiting.facts)).toContainEqual(['linkUp', 0]);
    rig.sim.start();
    await rig.sim.whenAlive();
    await driver.open(live());
    expect((await run(driver, keyJob({ keyCount: 2 }))).ok).toBe(true);
    expect(rig.sim.cards).toHaveLength(2);
  });

  it('a lost link is waited for again: the page says so, a key meanwhile fails with nothing sent, then the lock server is back', async () => {
    rig = await fiasRig();
    const driver = await rig.linked();
    const connections = rig.sim.connections;
    const sim = rig.sim;
    await sim.stop();
    // The lock server ended the link (LE): answered, and nothing more goes out.
    expect(types(sim.received).at(-1)).toBe('LE');
    expect(driver.status().connected).toBe(false);
    const out = await run(driver, keyJob({ keyCount: 1 }));
    expect(out.ok ? 'ok' : [out.error.code, out.error.retryable, out.error.details?.nothingSent]).toEqual([
      'DEVICE_UNAVAILABLE',
      true,
      true,
    ]);
    expect(out.ctx.checkpoints).toEqual([]);
    sim.start();
    await sim.whenAlive();
    await driver.open(live());
    expect(sim.connections).toBe(connections + 1);
    expect(driver.status().facts.linkDrops).toBe(1);
    // An abrupt drop (a pulled cable) is waited for the same way.
    sim.dropLink();
    await eventually('the drop is seen', () => driver.status().facts.linkDrops === 2);
    await sim.whenAlive();
    await driver.open(live());
    expect((await run(driver, keyJob({ keyCount: 1 }))).ok).toBe(true);
  });

  it('refuses a connection from another address (127.0.0.2): logged, counted, on the page; the lock server is never linked', async () => {
    rig = await fiasRig({ localAddress: '127.0.0.2' });
    const driver = rig.driver({ openWaitMs: 300 });
    rig.sim.start();
    const error = await driver.open(live()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAgentError(error) && error.code).toBe('DEVICE_UNAVAILABLE');
    await eventually(
      'the refusal is counted',
      () => (driver.status().facts.refusedConnections as number) >= 1,
    );
    expect(rig.sim.alive).toBe(false);
    expect(rig.sim.received).toEqual([]);
    const status = driver.status();
    expect(status.warnings.map(english)).toContain(
      'The agent refused a connection from 127.0.0.2, which is not the configured lock server (127.0.0.1); if the lock server moved, change lockServer in the agent’s configuration.',
    );
    expect(rig.log.lines.some((l) => l.includes('refused a connection') && l.includes('127.0.0.2'))).toBe(
      true,
    );
  });

  it('a newer connection waits while the older one starts its link, and takes over once that never finishes', async () => {
    rig = await fiasRig();
    const driver = rig.driver({ linkTimeoutMs: 200 });
    const opening = driver.open(live()).catch(() => undefined);
    const first = await rawLockServer(rig.port);
    await eventually('LS on the first', () => first.got.includes('LS'));
    const firstClosed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
    rig.sim.start();
    await firstClosed;
    await opening;
    await driver.open(live());
    expect(driver.status().connected).toBe(true);
    expect(driver.status().facts).toMatchObject({ linkReplacements: 0, secondConnectionsRefused: 0 });
  });

  it('a lock server that restarted gets its new link once the old one stays silent: the old link, asked, does not answer, and is replaced (p.90)', async () => {
    rig = await fiasRig();
    const driver = rig.driver({ aliveTimeoutMs: 200 });
    const opening = driver.open(live());
    const old = await rawLockServer(rig.port);
    await eventually('LS on the old connection', () => old.got.includes('LS'));
    old.send('LD|DA261004|TI120001|V#3.10|IFDL|');
    old.send('LA|DA261004|TI120001|');
    await opening;
    const oldClosed = new Promise<void>((resolve) => old.socket.once('close', () => resolve()));
    rig.sim.start();
    await oldClosed;
    // It was asked (LA) before it was dropped.
    expect(old.got.filter((t) => t === 'LA')).toHaveLength(2);
    await rig.sim.whenAlive();
    await driver.open(live());
    expect(driver.status().facts).toMatchObject({ linkReplacements: 1, secondConnectionsRefused: 0 });
    expect((await run(driver, keyJob({ keyCount: 1 }))).ok).toBe(true);
    expect(rig.log.lines.filter((l) => l.includes('replaces it'))).toHaveLength(1);
  });

  it('close() ends the link with LE and frees the port; the lock server reconnects after the next open()', async () => {
    rig = await fiasRig();
    const driver = await rig.linked();
    await driver.close();
    expect(types(rig.sim.received).at(-1)).toBe('LE');
    expect(driver.status().connected).toBe(false);
    await driver.open(live());
    expect(driver.status().connected).toBe(true);
  });

  it('frames as the specification writes them: STX record ETX, every field closed by |', () => {
    expect(encodeRecord(record('LS', { DA: '261004', TI: '120000' }))).toEqual(
      Buffer.from([
        0x02, 0x4c, 0x53, 0x7c, 0x44, 0x41, 0x32, 0x36, 0x31, 0x30, 0x30, 0x34, 0x7c, 0x54, 0x49, 0x31, 0x32,
        0x30, 0x30, 0x30, 0x30, 0x7c, 0x03,
      ]),
    );
  });
});
