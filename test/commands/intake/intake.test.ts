import { describe, expect, it } from 'vitest';
import { AgentError } from '../../../src/errors.js';
import { FISCAL_DEVICE, wireFiscalCommand, wireKeyCommand } from '../helpers/commands.js';
import { FakeSocket } from '../helpers/fake-socket.js';
import { setupIntake as setup, T } from '../helpers/intake-harness.js';

interface DeviceFilter {
  DeviceIds: string[];
  States: string[];
  UpdatedUtc: { StartUtc: string; EndUtc: string };
}
const filterOf = (request: { filter?: unknown } | undefined) => (request?.filter ?? {}) as DeviceFilter;
const HOUR = 3_600_000;

describe('intake', () => {
  it('polls fiscal commands by device groups of 100 over the lookback window, every page, every interval', async () => {
    const devices = Array.from({ length: 101 }, (_, i) => (i === 0 ? FISCAL_DEVICE.Id : `fiscal-${i}`));
    const t = setup({ fiscalDeviceIds: devices, otherDeviceIds: [] });
    for (let i = 0; i < 250; i++) t.platform.add({ fiscalWire: wireFiscalCommand({ id: `f${i}` }) });
    t.intake.start();
    await t.settle();
    const polls = t.platform.regularFiscal();
    expect(polls).toHaveLength(2);
    const first = filterOf(polls[0]);
    expect(first.DeviceIds.length).toBe(100);
    expect(filterOf(polls[1]).DeviceIds).toEqual(['fiscal-100']);
    expect(first.States).toEqual(['Pending', 'Received']);
    expect(first.UpdatedUtc).toEqual({
      StartUtc: new Date(T - 72 * HOUR).toISOString(),
      EndUtc: new Date(T + 60_000).toISOString(),
    });
    expect(polls.every((p) => p.priority === 'discovery')).toBe(true);
    expect(t.ingested.filter((i) => i.via === 'fiscal-poll').flatMap((i) => i.ids)).toHaveLength(250);
    expect(t.platform.countOf('activeCommands')).toBe(0);
    await t.advance(2000);
    expect(t.platform.regularFiscal()).toHaveLength(4);
    await t.intake.stop();
  });

  it('keeps the fiscal window inside the platform’s three months', async () => {
    const t = setup({
      fiscalDeviceIds: [FISCAL_DEVICE.Id],
      otherDeviceIds: [],
      poll: { intervalMs: 2000, safetyNetMs: 60_000, fiscalLookbackHours: 24 * 90 },
    });
    await t.intake.pollFiscal();
    const window = filterOf(t.platform.requests[0]).UpdatedUtc;
    expect(Date.parse(window.EndUtc) - Date.parse(window.StartUtc)).toBe(89 * 24 * HOUR);
  });

  it('turns a burst of WebSocket events into one getAllByIds, skipping known ids and passing on terminal states', async () => {
    const socket = new FakeSocket();
    const t = setup({ socket });
    for (const id of ['a', 'b', 'c', 'known']) t.platform.add({ wire: wireKeyCommand({ id }) });
    t.known.add('known');
    t.intake.start();
    socket.connect();
    await t.settle();
    t.platform.requests.length = 0;
    socket.event('a', 'Pending');
    socket.event('b');
    socket.event('known', 'Pending');
    socket.event('c', 'Pending');
    socket.event('gone', 'Cancelled');
    socket.event('a', 'Pending');
    // No wait on the clock: the events read together are fetched together, at once.
    await t.settle();
    expect(t.platform.requests).toEqual([
      { operation: 'commandsByIds', ids: ['a', 'b', 'c'], priority: 'discovery' },
    ]);
    expect(t.ingested.at(-1)).toEqual({ via: 'websocket', ids: ['a', 'b', 'c'] });
    expect(t.said).toEqual([['gone', 'Cancelled']]);

    for (let i = 0; i < 1500; i++) socket.event(`burst-${i}`, 'Pending');
    await t.settle();
    expect(
      t.platform.requests.filter((r) => r.operation === 'commandsByIds').map((r) => r.ids?.length),
    ).toEqual([3, 1000, 500]);
    await t.intake.stop();
  });

  it('fetches ids announced while a fetch is on the wire together, right after it', async () => {
    const socket = new FakeSocket();
    const t = setup({ socket });
    for (const id of ['a', 'b', 'c', 'd']) t.platform.add({ wire: wireKeyCommand({ id }) });
    t.intake.start();
    socket.connect();
    await t.settle();
    t.platform.requests.length = 0;
    const wire = t.platform.hold('commandsByIds');
    socket.event('a', 'Pending');
    await t.settle();
    expect(wire.waiting()).toBe(1);
    socket.event('b', 'Pending');
    socket.event('c', 'Pending');
    await t.settle();
    socket.event('d', 'Pending');
    await t.settle();
    // One request on the wire; the three announced meanwhile wait for it, not for the clock.
    expect(t.platform.requests.map((r) => r.ids)).toEqual([['a']]);
    wire.release();
    await t.settle();
    expect(t.platform.requests.map((r) => r.ids)).toEqual([['a'], ['b', 'c', 'd']]);
    expect(t.ingested.filter((i) => i.via === 'websocket').map((i) => i.ids)).toEqual([
      ['a'],
      ['b', 'c', 'd'],
    ]);
    await t.intake.stop();
  });

  it('catches up at start, on every (re)connect, every interval while the socket is down, every safety-net period while up', async () => {
    const socket = new FakeSocket();
    const t = setup({ socket });
    const count = () => t.platform.countOf('activeCommands');
    t.intake.start();
    await t.settle();
    expect(count()).toBe(1); // start (socket still connecting)
    await t.advance(2000);
    expect(count()).toBe(2); // socket not open: every interval
    socket.connect();
    await t.settle();
    expect(count()).toBe(3); // first connect
    await t.advance(30_000);
    expect(count()).toBe(3); // open: the safety net only
    await t.advance(30_000);
    expect(count()).toBe(4);
    socket.drop();
    await t.advance(2000);
    expect(count()).toBe(5); // down again: every interval
    socket.connect();
    await t.settle();
    expect(count()).toBe(6); // reconnect
    await t.intake.stop();
    await t.advance(120_000);
    expect(count()).toBe(6);
  });

  it('polls every interval without a socket, and only rarely after PLATFORM_AUTH', async () => {
    const t = setup();
    let refused = false;
    t.platform.fault.activeCommands = () =>
      refused ? new AgentError('PLATFORM_AUTH', 'Unauthorized') : undefined;
    t.intake.start();
    await t.advance(4000);
    expect(t.platform.countOf('activeCommands')).toBe(3);
    refused = true;
    await t.advance(2000);
    expect(t.intake.activity).toMatchObject({ authRejected: true, lastError: { code: 'PLATFORM_AUTH' } });
    const after = t.platform.countOf('activeCommands');
    await t.advance(200_000);
    expect(t.platform.countOf('activeCommands')).toBe(after);
    refused = false;
    await t.advance(100_000);
    expect(t.platform.countOf('activeCommands')).toBe(after + 1);
    expect(t.intake.activity.authRejected).toBe(false);
    await t.intake.stop();
  });
});
