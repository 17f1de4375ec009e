import { describe, expect, it } from 'vitest';
import { FULL_POLL_EVERY_MS, WINDOW_OVERLAP_MS } from '../../../src/commands/intake/fiscal-poll.js';
import { AgentError } from '../../../src/errors.js';
import { FISCAL_DEVICE, wireFiscalCommand } from '../helpers/commands.js';
import { setupIntake, T } from '../helpers/intake-harness.js';

/**
 * Issue 26.2: a backlog is read once. The first poll of a process lists Pending and Received over
 * the lookback; the others ask for the `UpdatedUtc` window since the last complete poll (less the
 * overlap), Pending and Cancelled only; known commands are recognised from `Id` and `State`
 * before parsing. `fiscalMachineCommands/getAll` by device and state takes `States` and
 * `UpdatedUtc` (platform-interfaces.md, Part B › fiscalMachineCommands/getAll parameter sets, 2).
 */

interface DeviceFilter {
  States: string[];
  UpdatedUtc: { StartUtc: string; EndUtc: string };
}
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function fiscalSetup() {
  return setupIntake({ fiscalDeviceIds: [FISCAL_DEVICE.Id], otherDeviceIds: [], accept: true });
}

describe('the fiscal poll asks only for what it does not know', () => {
  it('a full poll first, then windows from the last complete poll, and a settling window with the overlap', async () => {
    const t = fiscalSetup();
    for (let i = 0; i < 5; i++) t.platform.add({ fiscalWire: wireFiscalCommand({ id: `f${i}` }) });
    t.intake.start();
    await t.settle();
    for (let i = 0; i < 3; i++) await t.advance(2000);
    const filters = t.platform.requests
      .filter((r) => r.operation === 'fiscalCommands' && !t.platform.isDeepCatchUp(r))
      .map((r) => r.filter as DeviceFilter);
    expect(filters.map((f) => f.States)).toEqual([
      ['Pending', 'Received'],
      ['Pending', 'Cancelled'],
      ['Pending', 'Cancelled'],
      ['Pending', 'Cancelled'],
      ['Pending', 'Cancelled'],
    ]);
    expect(filters.map((f) => f.UpdatedUtc)).toEqual([
      { StartUtc: iso(T - 72 * HOUR), EndUtc: iso(T + 60_000) },
      { StartUtc: iso(T), EndUtc: iso(T + 2000 + 60_000) },
      { StartUtc: iso(T + 2000), EndUtc: iso(T + 4000 + 60_000) },
      // Once WINDOW_OVERLAP_MS of time has gathered behind the last settled point (the full
      // poll's start less the overlap), it is listed once more, up to WINDOW_OVERLAP_MS ago.
      { StartUtc: iso(T - WINDOW_OVERLAP_MS), EndUtc: iso(T + 6000 - WINDOW_OVERLAP_MS) },
      { StartUtc: iso(T + 4000), EndUtc: iso(T + 6000 + 60_000) },
    ]);
    // The full poll is a complete listing; the windows vouch that nothing else changed.
    expect(t.listed).toEqual([
      { source: 'fiscalMachineCommands', ids: ['f0', 'f1', 'f2', 'f3', 'f4'], since: T },
    ]);
    expect(t.unchanged).toEqual([
      { source: 'fiscalMachineCommands', since: T, at: T + 2000, changed: [] },
      { source: 'fiscalMachineCommands', since: T + 2000, at: T + 4000, changed: [] },
      { source: 'fiscalMachineCommands', since: T + 4000, at: T + 6000, changed: [] },
    ]);
    await t.intake.stop();
  });

  it('finds a command stamped before the last poll but visible only after it, in the settling window', async () => {
    const t = fiscalSetup();
    t.intake.start();
    await t.settle();
    await t.advance(2000);
    // Stamped before the poll at T + 2000 started (a late commit, or a platform clock behind
    // ours), visible only now: the next window, from T + 2000, does not reach it.
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'late' }), updatedAt: T + 500 });
    await t.advance(2000);
    expect(t.ingested.flatMap((i) => i.ids)).toEqual([]);
    // The settling window lists the stretch before that poll once WINDOW_OVERLAP_MS has passed.
    await t.advance(2000);
    expect(t.ingested.flatMap((i) => i.ids)).toEqual(['late']);
    await t.intake.stop();
  });

  it('lists a burst that stays Pending once more, not on every poll, while its Received is on its way', async () => {
    const t = fiscalSetup();
    for (let i = 0; i < 50; i++)
      t.platform.add({ fiscalWire: wireFiscalCommand({ id: `b${i}` }), updatedAt: T - 100 });
    t.intake.start();
    await t.settle();
    // Nothing of ours reaches the platform meanwhile: every command stays Pending for 6 s.
    for (let i = 0; i < 3; i++) await t.advance(2000);
    // Listed by the full poll and once more by the settling window, not by the windows between
    // (with the overlap on every window, each poll listed them all again: 200 items).
    expect(t.platform.fiscalItemsSent).toBe(100);
    await t.intake.stop();
  });

  it('recognises known commands from Id and State: parsed once, vouched for on every listing', async () => {
    const t = fiscalSetup();
    for (let i = 0; i < 5; i++) t.platform.add({ fiscalWire: wireFiscalCommand({ id: `f${i}` }) });
    t.intake.start();
    await t.settle();
    // Still Pending on the platform (our Received not delivered yet) and inside the window.
    await t.advance(2000);
    const parsed = t.ingested.flatMap((i) => i.ids);
    expect(parsed.sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(t.stillActive.at(-1)).toEqual({ ids: expect.arrayContaining(['f0', 'f4']), at: T + 2000 });
    expect(t.platform.fiscalItemsSent).toBe(10);
    // Received on the platform: out of the window polls' states, no longer read at all.
    for (let i = 0; i < 5; i++) t.platform.setState(`f${i}`, 'Received');
    await t.advance(2000);
    expect(t.platform.fiscalItemsSent).toBe(10);
    await t.intake.stop();
  });

  it('a staff cancellation is in the window and is not vouched for', async () => {
    const t = fiscalSetup();
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    t.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f2' }) });
    t.intake.start();
    await t.settle();
    t.platform.setState('f1', 'Received');
    t.platform.setState('f2', 'Cancelled');
    await t.advance(2000);
    expect(t.ingested.at(-1)).toEqual({ via: 'fiscal-poll', ids: ['f2'] });
    expect(t.unchanged.at(-1)).toMatchObject({ changed: ['f2'] });
    await t.intake.stop();
  });

  it('after a failed poll the window still starts at the last complete one', async () => {
    const t = fiscalSetup();
    t.intake.start();
    await t.settle();
    let failures = 1;
    t.platform.fault.fiscalCommands = () =>
      failures-- > 0 ? new AgentError('PLATFORM_UNREACHABLE', 'down') : undefined;
    await t.advance(2000);
    await t.advance(2000);
    const last = t.platform.regularFiscal().at(-1)?.filter as DeviceFilter;
    expect(last.UpdatedUtc.StartUtc).toBe(iso(T));
    expect(t.unchanged).toHaveLength(1);
    await t.intake.stop();
  });

  it('polls in full again every FULL_POLL_EVERY_MS', async () => {
    const t = fiscalSetup();
    t.intake.start();
    await t.settle();
    await t.advance(FULL_POLL_EVERY_MS);
    const states = t.platform.regularFiscal().map((r) => (r.filter as DeviceFilter).States.join());
    expect(states[0]).toBe('Pending,Received');
    expect(states.at(-1)).toBe('Pending,Received');
    expect(states.filter((s) => s === 'Pending,Received')).toHaveLength(2);
    expect(t.listed).toHaveLength(2);
    await t.intake.stop();
  });
});
