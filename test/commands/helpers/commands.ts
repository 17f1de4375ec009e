import type { NewCommand } from '../../../src/commands/journal/index.js';
import {
  type NormalizedItem,
  normalizeCommand,
  normalizeFiscalMachineCommand,
  type PlatformCommand,
} from '../../../src/connector/model.js';
import type { CommandState } from '../../../src/connector/wire.js';

/**
 * Wire-shaped commands as the platform sends them (field names from the docs' samples), so that
 * tests exercise the real normaliser. Each builder returns the raw item; `normalize*` turns it
 * into what a ConnectorApi hands the engine.
 */

export const KEY_DEVICE = { Id: 'dev-keys-1', Type: 'KeyCutter', Name: 'Front desk encoder' };
export const PRINTER_DEVICE = { Id: 'dev-printer-1', Type: 'Printer', Name: 'Back office printer' };
export const FISCAL_DEVICE = { Id: 'dev-fiscal-1', Type: 'FiscalMachine', Name: 'Fiscal Printer FP-001' };
export const FOREIGN_DEVICE = { Id: 'dev-someone-else', Type: 'KeyCutter', Name: 'Spa encoder' };
export const TERMINAL_DEVICE = { Id: 'dev-terminal-1', Type: 'PaymentTerminal', Name: 'Card terminal' };

export interface WireOptions {
  id: string;
  state?: CommandState;
  createdUtc?: string;
  device?: { Id: string; Type: string; Name: string };
}

export function wireKeyCommand(o: WireOptions & { keyCount?: number }): Record<string, unknown> {
  return {
    Id: o.id,
    State: o.state ?? 'Pending',
    CreatedUtc: o.createdUtc ?? '2026-01-01T00:00:00Z',
    Creator: { FirstName: 'Sample', LastName: 'User' },
    Device: o.device ?? KEY_DEVICE,
    Data: {
      KeyCount: o.keyCount ?? 2,
      LockIds: ['101'],
      StartUtc: '2026-01-01T14:00:00Z',
      EndUtc: '2026-01-03T10:00:00Z',
      LastName: 'Rossi',
      FirstName: 'Maria',
      ReservationId: 'res-1',
      KeyCutterId: 'ENC1',
      KeyCutterData: '{"Type":"Salto"}',
    },
  };
}

export function wirePrinterCommand(o: WireOptions): Record<string, unknown> {
  return {
    Id: o.id,
    State: o.state ?? 'Pending',
    CreatedUtc: o.createdUtc ?? '2026-01-01T00:00:00Z',
    Device: o.device ?? PRINTER_DEVICE,
    Data: { CopyCount: 1, FileType: 'application/pdf', FileData: 'JVBERi0=', PrinterName: 'Printer' },
  };
}

export function wireFiscalCommand(o: WireOptions): Record<string, unknown> {
  return {
    Id: o.id,
    State: o.state ?? 'Pending',
    CreatedUtc: o.createdUtc ?? '2026-01-01T00:00:00Z',
    FiscalMachineId: 'FM-001',
    ApiUrl: 'https://fiscal-machine.example.com/api',
    FiscalMachineData: '{"printerPort": "COM1"}',
    Device: o.device ?? { ...FISCAL_DEVICE, Identifier: null },
    Bill: { Id: `bill-${o.id}`, Name: 'Hotel Invoice', Number: '1001', State: 'Closed' },
    CommandData: {
      Discriminator: 'ItalianFiscalMachineData',
      ItalianFiscalMachineData: { IsRefund: false, PrinterSerialNumber: 'FP001-123456' },
      ItalianFiscalMachinePayload: null,
    },
  };
}

/** The same fiscal command in the legacy `commands/*` shape. */
export function wireLegacyFiscalCommand(o: WireOptions): Record<string, unknown> {
  return {
    Id: o.id,
    State: o.state ?? 'Pending',
    CreatedUtc: o.createdUtc ?? '2026-01-01T00:00:00Z',
    Device: o.device ?? FISCAL_DEVICE,
    Data: {
      FiscalMachineId: 'FM-001',
      Bill: { Id: `bill-${o.id}`, Number: '1001' },
      BillFiscalMachineData: { Discriminator: 'ItalianFiscalMachineData', Value: { IsRefund: false } },
    },
  };
}

export function command(item: NormalizedItem): PlatformCommand {
  if (!item.ok) throw item.error;
  return item.command;
}

export const keyCommand = (o: WireOptions): PlatformCommand => command(normalizeCommand(wireKeyCommand(o)));
export const fiscalCommand = (o: WireOptions): PlatformCommand =>
  command(normalizeFiscalMachineCommand(wireFiscalCommand(o)));

/**
 * The journal's new row for `c`, named by the command's own device (the engine names it by the
 * configured device instead): for tests and benches that write the journal without the engine.
 */
export function journaledCommand(c: PlatformCommand, seenAt: number): NewCommand {
  return {
    id: c.id,
    deviceId: c.device.id,
    deviceName: c.device.name,
    deviceType: c.device.type,
    kind: c.data.kind,
    source: c.source,
    command: c,
    createdUtc: c.createdUtc,
    seenAt,
  };
}
