import { describe, expect, it } from 'vitest';
import { FULL_POLL_EVERY_MS } from '../../src/commands/intake/fiscal-poll.js';
import type { CommandState } from '../../src/connector/wire.js';
import { FISCAL_DEVICE, wireFiscalCommand, wireLegacyFiscalCommand } from './helpers/commands.js';
import { harness, T0 } from './helpers/harness.js';
import { takes } from './helpers/scripted-driver.js';

/**
 * The engine on the cases the platform's interface document allows and the agent once got wrong
 * (issue 12): a fiscal machine listed as a Printer, a state the agent does not know in the read
 * before a start, and a Pending fiscal command older than the lookback window.
 */

const AS_PRINTER = { ...FISCAL_DEVICE, Type: 'Printer' };
const DAY = 86_400_000;

describe('a fiscal machine the platform lists as a Printer (Part B › Resources › Fiscal machine command data, Device)', () => {
  it('reads a command that commands/* shows Printer-typed through the fiscal operation by id, and prints it', async () => {
    const h = harness({ socket: true });
    await h.engine.start();
    h.socket?.connect();
    await h.settle();
    h.platform.add({
      wire: wireLegacyFiscalCommand({ id: 'f1', device: AS_PRINTER }),
      fiscalWire: wireFiscalCommand({ id: 'f1', device: { ...AS_PRINTER, Identifier: null } as never }),
    });
    h.platform.requests.length = 0;
    h.socket?.event('f1', 'Pending');
    await h.until(() => h.platform.state('f1') === 'Processed', 'f1 processed');
    expect(h.platform.requests.slice(0, 2).map((r) => [r.operation, r.ids])).toEqual([
      ['commandsByIds', ['f1']],
      ['fiscalCommands', ['f1']],
    ]);
    expect(h.platform.historyOf('f1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.drivers.fiscal.executed.map((j) => j.data.kind)).toEqual(['fiscal']);
    expect(h.drivers.printer.executed).toHaveLength(0);
    await h.engine.stop(1000);
  });

  it('leaves a command alone (warned once) when the fiscal operation does not return it, rather than ending it in Error', async () => {
    const h = harness({ socket: true });
    await h.engine.start();
    h.socket?.connect();
    await h.settle();
    h.platform.add({ wire: wireLegacyFiscalCommand({ id: 'f2', device: AS_PRINTER }) });
    h.socket?.event('f2', 'Pending');
    await h.advance(5000);
    h.socket?.event('f2', 'Pending');
    await h.advance(5000);
    expect(h.platform.historyOf('f2')).toEqual([]);
    expect(h.journal.has('f2')).toBe(false);
    expect(
      h.log.lines.filter((l) => l.includes('not returned by fiscalMachineCommands/getAll')),
    ).toHaveLength(1);
    await h.engine.stop(1000);
  });

  it('runs a Printer-typed item of the fiscal poll as the fiscal command it is', async () => {
    const h = harness();
    h.platform.add({
      fiscalWire: wireFiscalCommand({ id: 'f3', device: { ...AS_PRINTER, Identifier: null } as never }),
    });
    await h.engine.start();
    await h.until(() => h.platform.state('f3') === 'Processed', 'f3 processed');
    expect(h.drivers.fiscal.executed.map((j) => j.commandId)).toEqual(['f3']);
    await h.engine.stop(1000);
  });
});

describe('the read before a start (Part B › States and transitions: the six command states)', () => {
  it('does not start a command in a state it does not know: logged once, the queue goes on, read again until it knows', async () => {
    const h = harness();
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f2' }) });
    // Someone else moves f2 to a state no poll can ask for: the window polls (Pending, Cancelled)
    // cannot see it; the next full poll's complete listing misses f2, so f2 is read before it
    // starts (issue 26.2). f1 prints until after that full poll.
    h.drivers.fiscal.next(takes(h.clock, FULL_POLL_EVERY_MS + 5000));
    await h.engine.start();
    await h.settle();
    h.platform.setState('f2', 'Paused' as CommandState);
    await h.until(() => h.platform.state('f1') === 'Processed', 'f1 processed', FULL_POLL_EVERY_MS + 60_000);
    await h.advance(3000);
    // Held: not started, and the device is free for the next command.
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f3' }) });
    await h.until(() => h.platform.state('f3') === 'Processed', 'f3 processed');
    await h.advance(10_000);
    expect(h.drivers.fiscal.executed.map((j) => j.commandId)).toEqual(['f1', 'f3']);
    expect(h.platform.historyOf('f2')).toEqual(['Received']);
    expect(h.log.lines.filter((l) => l.includes('a state this agent does not know'))).toHaveLength(1);
    const reads = h.platform.requests.filter((r) => r.ids?.includes('f2')).length;
    await h.advance(30_000);
    expect(h.platform.requests.filter((r) => r.ids?.includes('f2')).length).toBeGreaterThan(reads);
    // Known again: it starts.
    h.platform.setState('f2', 'Received');
    await h.until(() => h.platform.state('f2') === 'Processed', 'f2 processed', 120_000);
    expect(h.drivers.fiscal.executed.map((j) => j.commandId)).toEqual(['f1', 'f3', 'f2']);
    await h.engine.stop(1000);
  });
});

describe('a Pending fiscal command older than fiscalLookbackHours (Part B › Limits: UpdatedUtc at most 3 months)', () => {
  it('is found by the deep catch-up at start, paged at discovery priority over the whole window, and printed', async () => {
    const h = harness();
    h.platform.add({
      fiscalWire: wireFiscalCommand({ id: 'old', createdUtc: new Date(T0 - 5 * DAY).toISOString() }),
    });
    const stored = h.platform.commands.get('old');
    if (stored) stored.updatedAt = T0 - 5 * DAY;
    await h.engine.start();
    await h.until(() => h.platform.state('old') === 'Processed', 'old processed');
    const deep = h.platform.deepFiscal();
    expect(deep.length).toBeGreaterThanOrEqual(1);
    expect(deep.every((r) => r.priority === 'discovery')).toBe(true);
    const filter = deep[0]?.filter as { States: string[]; UpdatedUtc: { StartUtc: string; EndUtc: string } };
    expect(filter.States).toEqual(['Pending', 'Received']);
    // From the 3-month limit to an hour into the regular window (72 h), which never listed it.
    expect(Date.parse(filter.UpdatedUtc.StartUtc)).toBeLessThanOrEqual(T0 - 88 * DAY);
    const regular = h.platform.regularFiscal()[0]?.filter as { UpdatedUtc: { StartUtc: string } };
    expect(Date.parse(regular.UpdatedUtc.StartUtc)).toBeGreaterThan(T0 - 5 * DAY);
    expect(Date.parse(filter.UpdatedUtc.EndUtc)).toBe(Date.parse(regular.UpdatedUtc.StartUtc) + 3_600_000);
    // And again every deepCatchUpHours (default 6), not every poll.
    const before = h.platform.deepFiscal().length;
    await h.advance(3_600_000, 60_000);
    expect(h.platform.deepFiscal().length).toBe(before);
    await h.advance(5 * 3_600_000, 60_000);
    expect(h.platform.deepFiscal().length).toBe(before + 1);
    await h.engine.stop(1000);
  });
});
