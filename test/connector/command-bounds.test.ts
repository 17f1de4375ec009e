import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS, commandBoundsViolation } from '../../src/connector/bounds.js';
import { connectorMessages } from '../../src/connector/messages.js';
import {
  type NormalizedItem,
  normalizeCommand,
  normalizeFiscalMachineCommand,
  parseEmbeddedJson,
} from '../../src/connector/model.js';
import {
  wireFiscalCommand,
  wireKeyCommand,
  wireLegacyFiscalCommand,
  wirePrinterCommand,
} from '../commands/helpers/commands.js';

/** Every command shape, and what each bound refuses in it (issue 13, "One command, one fate"). */

const deepJson = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
function deepValue(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function refused(item: NormalizedItem, pattern: RegExp): void {
  expect(item.ok).toBe(false);
  if (item.ok) return;
  expect(item.error.code).toBe('COMMAND_INVALID');
  expect(item.error.notes).toEqual(connectorMessages.commandOversized());
  expect(item.error.message).toMatch(pattern);
  // What is known of it survives, so the engine can end it in Error on its own.
  expect(item.id).toBeDefined();
  expect(item.deviceId).toBeDefined();
  expect(item.state).toBe('Pending');
}

const with_ = (wire: Record<string, unknown>, change: (data: Record<string, unknown>) => void) => {
  const copy = structuredClone(wire);
  change(copy);
  return copy;
};
const withData = (wire: Record<string, unknown>, change: (data: Record<string, unknown>) => void) =>
  with_(wire, (w) => change(w.Data as Record<string, unknown>));

describe('command bounds: each shape', () => {
  it('fiscal flat: FiscalMachineData nested 10,000 deep, a deep Bill, a long Bill name, a huge payload', () => {
    const base = wireFiscalCommand({ id: 'f1' });
    refused(
      normalizeFiscalMachineCommand({ ...base, FiscalMachineData: `{"a":${deepJson(10_000)}}` }),
      /^Malformed fiscal command: FiscalMachineData is nested deeper than 32 levels$/,
    );
    refused(
      normalizeFiscalMachineCommand(
        with_(base, (w) => Object.assign(w.Bill as object, { X: deepValue(100) })),
      ),
      /Bill\.X(\.a)* is nested deeper/,
    );
    refused(
      normalizeFiscalMachineCommand(
        with_(base, (w) =>
          Object.assign(w.Bill as object, { Name: 'n'.repeat(COMMAND_LIMITS.maxStringChars + 1) }),
        ),
      ),
      /Bill\.Name is longer than 16384 characters/,
    );
    refused(
      normalizeFiscalMachineCommand({
        ...base,
        CommandData: {
          Discriminator: 'ItalianFiscalMachinePayload',
          ItalianFiscalMachinePayload: { Payload: 'A'.repeat(COMMAND_LIMITS.maxFiscalPayloadChars + 4) },
        },
      }),
      /CommandData\.ItalianFiscalMachinePayload\.Payload is longer than 1048576/,
    );
    refused(
      normalizeFiscalMachineCommand({ ...base, FiscalMachineData: `"${'x'.repeat(70_000)}"` }),
      /FiscalMachineData is longer than 65536/,
    );
  });

  it('legacy fiscal Data: deep, wide, long', () => {
    const base = wireLegacyFiscalCommand({ id: 'l1' });
    refused(
      normalizeCommand(withData(base, (d) => Object.assign(d, { X: deepValue(10_000) }))),
      /nested deeper/,
    );
    refused(
      normalizeCommand(
        withData(base, (d) => Object.assign(d, { FiscalMachineData: `{"a":${deepJson(40)}}` })),
      ),
      /FiscalMachineData is nested deeper than 32/,
    );
    refused(
      normalizeCommand(
        withData(base, (d) =>
          Object.assign(d.Bill as object, {
            Revenue: Array.from({ length: 30_000 }, () => ({ Amount: { Currency: 'EUR', Value: 1 } })),
          }),
        ),
      ),
      /more than 50000 values/,
    );
    refused(
      normalizeCommand(
        withData(base, (d) =>
          Object.assign(d, { PayloadData: { Value: 'A'.repeat(COMMAND_LIMITS.maxFiscalPayloadChars + 4) } }),
        ),
      ),
      /PayloadData\.Value is longer than/,
    );
  });

  it('key cutter: KeyCutterData nested deep, a guest name of 1 MB, 60,000 lock ids', () => {
    const base = wireKeyCommand({ id: 'k1' });
    refused(
      normalizeCommand(
        withData(base, (d) => Object.assign(d, { KeyCutterData: `{"a":${deepJson(5_000)}}` })),
      ),
      /KeyCutterData is nested deeper/,
    );
    refused(
      normalizeCommand(withData(base, (d) => Object.assign(d, { LastName: 'R'.repeat(1024 * 1024) }))),
      /Data\.LastName is longer than/,
    );
    refused(
      normalizeCommand(
        withData(base, (d) => Object.assign(d, { LockIds: Array.from({ length: 60_000 }, String) })),
      ),
      /more than 50000 values/,
    );
  });

  it('printer: FileData may be large, every other string may not', () => {
    const base = wirePrinterCommand({ id: 'p1' });
    const big = normalizeCommand(
      withData(base, (d) => Object.assign(d, { FileData: 'A'.repeat(8 * 1024 * 1024) })),
    );
    expect(big.ok).toBe(true);
    refused(
      normalizeCommand(withData(base, (d) => Object.assign(d, { FileType: 'x'.repeat(20_000) }))),
      /Data\.FileType is longer than/,
    );
  });

  it('the whole text of a command is bounded (many strings each within their own cap)', () => {
    const base = wireKeyCommand({ id: 'k2' });
    const notes = Array.from({ length: 80 }, () => 'y'.repeat(15_000));
    refused(
      normalizeCommand(withData(base, (d) => Object.assign(d, { Notes: notes }))),
      /text is longer than 1048576/,
    );
  });

  it('an id longer than any GUID is not kept (nothing can be reported about it)', () => {
    const item = normalizeCommand({
      ...wireKeyCommand({ id: 'x' }),
      Id: 'i'.repeat(500),
      Extra: deepValue(50),
    });
    expect(item.ok).toBe(false);
    if (!item.ok) expect(item.id).toBeUndefined();
  });

  it('well-formed commands of every shape pass, and the measure never recurses', () => {
    for (const wire of [
      wireFiscalCommand({ id: 'a' }),
      wireLegacyFiscalCommand({ id: 'b' }),
      wireKeyCommand({ id: 'c' }),
      wirePrinterCommand({ id: 'd' }),
    ]) {
      expect(commandBoundsViolation(wire)).toBeUndefined();
    }
    expect(commandBoundsViolation(deepValue(1_000_000))).toMatch(/nested deeper than 32/);
  });

  it('parseEmbeddedJson keeps an over-deep or over-long value as an error, never throws', () => {
    expect(parseEmbeddedJson(deepJson(30_000).replace(/^\[/, '{"a":[').replace(/\]$/, ']}'))).toMatchObject({
      value: {},
      error: expect.stringMatching(/nested deeper/),
    });
    expect(parseEmbeddedJson(`"${'x'.repeat(70_000)}"`)).toMatchObject({
      value: {},
      error: expect.any(String),
    });
  });
});
