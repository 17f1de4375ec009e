import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors.js';
import {
  FISCAL_DEVICE,
  wireFiscalCommand,
  wireKeyCommand,
  wireLegacyFiscalCommand,
} from '../helpers/commands.js';
import { FakeSocket } from '../helpers/fake-socket.js';
import { setupIntake, T } from '../helpers/intake-harness.js';

const FISCAL = [FISCAL_DEVICE.Id];
const iso = (ms: number) => new Date(ms).toISOString();

describe('intake: fiscal devices and the WebSocket', () => {
  it('polls fiscal devices at start, on every (re)connect, every interval while the socket is down, every safety-net period while up', async () => {
    const socket = new FakeSocket();
    const t = setupIntake({ socket, fiscalDeviceIds: FISCAL, otherDeviceIds: [] });
    const count = () => t.platform.regularFiscal().length;
    t.intake.start();
    await t.settle();
    expect(count()).toBe(1);
    await t.advance(2000);
    expect(count()).toBe(2); // socket not open yet
    socket.connect();
    await t.settle();
    expect(count()).toBe(3); // connect: whatever was created meanwhile
    for (let i = 0; i < 29; i++) await t.advance(2000);
    expect(count()).toBe(3); // open: the safety net only
    await t.advance(2000);
    expect(count()).toBe(4);
    socket.drop();
    await t.advance(2000);
    expect(count()).toBe(5);
    await t.intake.stop();
  });

  it('asks getAllByIds and fiscalMachineCommands at once for announced ids: an event does not say which device', async () => {
    const socket = new FakeSocket();
    const t = setupIntake({ socket, fiscalDeviceIds: FISCAL, accept: true });
    t.intake.start();
    socket.connect();
    await t.settle();
    t.platform.requests.length = 0;
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    t.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    t.platform.add({
      wire: wireLegacyFiscalCommand({ id: 'f2' }),
      fiscalWire: wireFiscalCommand({ id: 'f2' }),
    });
    for (const id of ['f1', 'k1', 'f2']) socket.event(id, 'Pending');
    await t.advance(150);
    // One round trip for a fiscal command: both reads go together. f2, listed by getAllByIds on
    // the fiscal device, is taken from the fiscal operation's answer, once.
    expect(t.platform.requests.map((r) => [r.operation, r.ids])).toEqual([
      ['commandsByIds', ['f1', 'k1', 'f2']],
      ['fiscalCommands', ['f1', 'k1', 'f2']],
    ]);
    const ingested = t.ingested.filter((i) => i.via === 'websocket').flatMap((i) => i.ids);
    expect(ingested.sort()).toEqual(['f1', 'f2', 'k1']);
    await t.intake.stop();
  });

  it('a fiscal-only agent looks announced ids up in fiscalMachineCommands alone', async () => {
    const socket = new FakeSocket();
    const t = setupIntake({ socket, fiscalDeviceIds: FISCAL, otherDeviceIds: [], accept: true });
    t.intake.start();
    socket.connect();
    await t.settle();
    t.platform.requests.length = 0;
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    socket.event('f1', 'Pending');
    await t.advance(150);
    expect(t.platform.requests.map((r) => [r.operation, r.ids])).toEqual([['fiscalCommands', ['f1']]]);
    expect(t.known.has('f1')).toBe(true);
    await t.intake.stop();
  });

  it('polls fiscal devices every interval again once a slow poll finds a command the socket never announced', async () => {
    const socket = new FakeSocket();
    const t = setupIntake({ socket, fiscalDeviceIds: FISCAL, otherDeviceIds: [], accept: true });
    const count = () => t.platform.regularFiscal().length;
    t.intake.start();
    socket.connect();
    await t.settle();
    // Created just before a slow poll: the event may still be on its way; not counted as missed.
    await t.advance(59_000);
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1', createdUtc: iso(T + 58_000) }) });
    await t.advance(2000);
    expect(t.known.has('f1')).toBe(true);
    const afterFirst = count();
    await t.advance(10_000);
    expect(count()).toBe(afterFirst); // still slow
    // Created 15 s after the socket opened, never announced, found 45 s later: the socket missed it.
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f2', createdUtc: iso(T + 75_000) }) });
    await t.advance(50_000);
    expect(t.known.has('f2')).toBe(true);
    const afterMiss = count();
    await t.advance(2000);
    expect(count()).toBe(afterMiss + 1); // every interval from now on
    await t.intake.stop();
  });

  it('reports complete listings of active commands, and no fiscal listing when a group failed', async () => {
    const devices = Array.from({ length: 101 }, (_, i) => (i === 0 ? FISCAL_DEVICE.Id : `fiscal-${i}`));
    const t = setupIntake({ fiscalDeviceIds: devices });
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    t.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    t.intake.start();
    await t.settle();
    expect(t.listed).toEqual(
      expect.arrayContaining([
        { source: 'commands', ids: ['k1'], since: T },
        { source: 'fiscalMachineCommands', ids: ['f1'], since: T },
      ]),
    );
    let calls = 0;
    t.platform.fault.fiscalCommands = () =>
      calls++ % 2 === 1 ? new AgentError('PLATFORM_ERROR', 'Service Unavailable') : undefined;
    t.listed.length = 0;
    await t.advance(2000);
    expect(t.listed.map((l) => l.source)).toEqual(['commands']);
    await t.intake.stop();
  });

  it('marks a known command for a fresh read when an event says Processing or nothing', async () => {
    const socket = new FakeSocket();
    const t = setupIntake({ socket });
    for (const id of ['a', 'b', 'c']) t.known.add(id);
    t.intake.start();
    socket.connect();
    socket.event('a', 'Received');
    socket.event('b', 'Processing');
    socket.event('c');
    await t.advance(150);
    expect(t.moved).toEqual(['b', 'c']);
    expect(t.platform.countOf('commandsByIds')).toBe(0);
    await t.intake.stop();
  });
});
