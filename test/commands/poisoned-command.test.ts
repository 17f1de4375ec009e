import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS } from '../../src/connector/bounds.js';
import { connectorMessages } from '../../src/connector/messages.js';
import type { NormalizedItem } from '../../src/connector/model.js';
import { english } from '../../src/messages/render.js';
import { wireFiscalCommand, wireKeyCommand, wirePrinterCommand } from './helpers/commands.js';
import { FakePlatform } from './helpers/fake-platform.js';
import { harness, T0 } from './helpers/harness.js';

/**
 * One command, one fate: a command the agent cannot read (nested 10,000 deep, too large) ends in
 * Error with Notes on its own, and every other command of every device goes on. Before the
 * bounds, one such `FiscalMachineData` made every poll fail with `Maximum call stack size
 * exceeded` and no command of any device was taken in any more.
 */

const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepValue = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

function poisonedFiscal(id: string): Record<string, unknown> {
  return { ...wireFiscalCommand({ id }), FiscalMachineData: deepJson(10_000) };
}

describe('engine: a poisoned command', () => {
  it('ends alone in Error (COMMAND_INVALID, with Notes) while 12 commands of three devices are printed and cut', async () => {
    const h = harness();
    const good: string[] = [];
    for (let i = 0; i < 4; i++) {
      good.push(h.platform.add({ fiscalWire: wireFiscalCommand({ id: `f${i}` }) }));
      good.push(h.platform.add({ wire: wireKeyCommand({ id: `k${i}` }) }));
      good.push(h.platform.add({ wire: wirePrinterCommand({ id: `p${i}` }) }));
    }
    h.platform.add({ fiscalWire: poisonedFiscal('poison') });
    await h.engine.start();
    await h.until(() => good.every((id) => h.platform.state(id) === 'Processed'), 'the 12 processed');
    await h.until(() => h.platform.state('poison') === 'Error', 'the poisoned one in Error');

    expect(good.filter((id) => h.platform.state(id) === 'Processed')).toHaveLength(12);
    const notes = h.platform.updates.find((u) => u.CommandId === 'poison' && u.State === 'Error')?.Notes;
    expect(notes).toContain(english(connectorMessages.commandOversized()));
    expect(notes).toContain('COMMAND_INVALID');
    expect(notes).toContain(`FiscalMachineData is nested deeper than ${COMMAND_LIMITS.maxDepth} levels`);
    expect(h.journal.get('poison')).toMatchObject({ kind: 'invalid', error: { code: 'COMMAND_INVALID' } });
    expect(h.log.lines.filter((l) => /JOURNAL_ERROR|call stack/.test(l))).toEqual([]);
    expect(h.drivers.fiscal.executed.map((j) => j.commandId).sort()).toEqual(['f0', 'f1', 'f2', 'f3']);
    await h.engine.stop(1000);
  });

  it('is refused in the key-cutter and printer shapes too, each on its own', async () => {
    const h = harness();
    const huge = 'x'.repeat(COMMAND_LIMITS.maxStringChars + 1);
    const keys = wireKeyCommand({ id: 'keys-deep' });
    (keys.Data as Record<string, unknown>).KeyCutterData = deepJson(5_000);
    const printer = wirePrinterCommand({ id: 'printer-long' });
    (printer.Data as Record<string, unknown>).PrinterName = huge;
    const wide = wireKeyCommand({ id: 'keys-wide' });
    (wide.Data as Record<string, unknown>).LockIds = Array.from({ length: 60_000 }, (_, i) => String(i));
    for (const wire of [keys, printer, wide]) h.platform.add({ wire });
    h.platform.add({ wire: wireKeyCommand({ id: 'fine' }) });
    await h.engine.start();
    const poisoned = ['keys-deep', 'printer-long', 'keys-wide'];
    await h.until(
      () =>
        poisoned.every((id) => h.platform.state(id) === 'Error') && h.platform.state('fine') === 'Processed',
      'each poisoned one in Error, the good one processed',
    );
    for (const id of poisoned) {
      expect(h.journal.get(id)?.error?.notes).toEqual(connectorMessages.commandOversized());
    }
    expect(h.journal.get('keys-deep')?.error?.message).toMatch(/KeyCutterData is nested deeper/);
    expect(h.journal.get('printer-long')?.error?.message).toMatch(/Data\.PrinterName is longer than/);
    expect(h.journal.get('keys-wide')?.error?.message).toMatch(/more than 50000 values/);
    await h.engine.stop(1000);
  });

  it('takes in the 999 others of a page of 1,000 fiscal commands', async () => {
    const h = harness();
    for (let i = 0; i < 1000; i++) {
      const id = `c${String(i).padStart(4, '0')}`;
      h.platform.add({ fiscalWire: i === 500 ? poisonedFiscal(id) : wireFiscalCommand({ id }) });
    }
    await h.engine.start();
    await h.settle();
    const phases = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const record = h.journal.head(`c${String(i).padStart(4, '0')}`);
      const key = record ? record.kind : 'missing';
      phases.set(key, (phases.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(phases)).toEqual({ fiscal: 999, invalid: 1 });
    expect(h.journal.head('c0500')).toMatchObject({ kind: 'invalid', state: 'Error' });
    await h.engine.stop(1000);
  });

  it('keeps one fate even when a command slips past the bounds and the journal cannot store it', async () => {
    const platform = new (class extends FakePlatform {
      override async activeCommands(options = {}): Promise<NormalizedItem[]> {
        const items = await super.activeCommands(options);
        for (const item of items) {
          if (item.ok && item.command.id === 'slipped' && item.command.data.kind === 'keys') {
            // What the bounds exist to refuse, made by hand: the journal's JSON cannot hold it.
            item.command.data.keys.settings.value = deepValue(20_000) as Record<string, unknown>;
          }
        }
        return items;
      }
    })(() => T0);
    const h = harness({ platform });
    h.platform.add({ wire: wireKeyCommand({ id: 'slipped' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    await h.engine.start();
    await h.until(
      () => h.platform.state('k1') === 'Processed' && h.platform.state('p1') === 'Processed',
      'the others processed',
    );
    expect(h.journal.get('slipped')).toMatchObject({ kind: 'invalid', error: { code: 'COMMAND_INVALID' } });
    expect(h.log.lines.some((l) => /could not be journaled/.test(l) && /slipped/.test(l))).toBe(true);
    await h.engine.stop(1000);
  });
});
