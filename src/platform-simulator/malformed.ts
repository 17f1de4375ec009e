import { MALFORMED_KINDS, type MalformedKind } from './fault-schema.js';
import type { CommandKind } from './scenario.js';

/**
 * Broken command data, as a misconfigured or buggy platform would send it. Each corruption keeps
 * `Id`, `State` and `Device.Id` intact (so the agent can still name and refuse the command) and
 * breaks exactly one thing:
 * - `bad-base64`: the fiscal payload / printer file is not Base64;
 * - `garbage-fiscal-machine-data`: `FiscalMachineData` (or `KeyCutterData`) is not JSON;
 * - `missing-field`: a required field is gone (fiscal `Bill`, keys `LockIds`, printer `FileData`);
 * - `unknown-device-type`: `Device.Type` is a type nobody knows;
 * - `huge-strings`: a name or description of 256 KiB;
 * - `deep-nesting`: `FiscalMachineData` (or `KeyCutterData`) is valid JSON nested 10,000 deep
 *   (the poisoned command of issue 13).
 */

type Json = Record<string, unknown>;

export const HUGE_STRING_LENGTH = 256 * 1024;
const BAD_BASE64 = '%%%not*base64!!€';
const GARBAGE_JSON = '{"printerPort": "COM1", "baudRate": 96';
export const DEEP_NESTING_LEVELS = 10_000;
const DEEP_JSON = `${'{"a":'.repeat(DEEP_NESTING_LEVELS)}1${'}'.repeat(DEEP_NESTING_LEVELS)}`;

/** The corruptions that make sense for a command kind. */
export function applicableMalformed(kind: CommandKind): MalformedKind[] {
  switch (kind) {
    case 'fiscal-payload':
      return [...MALFORMED_KINDS];
    case 'fiscal-data':
    case 'fiscal-refund':
    case 'keys':
      // Only a payload carries Base64 to corrupt.
      return MALFORMED_KINDS.filter((k) => k !== 'bad-base64');
    case 'printer':
      return ['bad-base64', 'missing-field', 'unknown-device-type', 'huge-strings'];
    case 'payment-terminal':
      return ['missing-field', 'unknown-device-type', 'huge-strings'];
  }
}

function huge(): string {
  return 'Ünïcødé-Gäst '.repeat(Math.ceil(HUGE_STRING_LENGTH / 13)).slice(0, HUGE_STRING_LENGTH);
}

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** Applies one corruption in place to a rendered command and returns it. */
export function corrupt(out: Json, kind: MalformedKind, shape: 'fiscal-flat' | 'command'): Json {
  const device = obj(out.Device);
  const data = shape === 'command' ? obj(out.Data) : out;
  if (!data) return out;
  switch (kind) {
    case 'bad-base64': {
      const payload = obj(obj(data.CommandData)?.ItalianFiscalMachinePayload);
      if (payload) payload.Payload = BAD_BASE64;
      const legacy = obj(data.PayloadData);
      if (legacy) legacy.Value = BAD_BASE64;
      if ('FileData' in data) data.FileData = BAD_BASE64;
      break;
    }
    case 'garbage-fiscal-machine-data':
      if ('FiscalMachineData' in data) data.FiscalMachineData = GARBAGE_JSON;
      if ('KeyCutterData' in data) data.KeyCutterData = GARBAGE_JSON;
      break;
    case 'deep-nesting':
      if ('FiscalMachineData' in data) data.FiscalMachineData = DEEP_JSON;
      if ('KeyCutterData' in data) data.KeyCutterData = DEEP_JSON;
      break;
    case 'missing-field':
      for (const field of ['Bill', 'LockIds', 'FileData', 'Amount']) delete data[field];
      break;
    case 'unknown-device-type':
      if (device) device.Type = 'HologramProjector';
      break;
    case 'huge-strings': {
      const bill = obj(data.Bill);
      if (bill) bill.Name = huge();
      if ('LastName' in data) data.LastName = huge();
      if ('PrinterName' in data) data.PrinterName = huge();
      if ('Type' in data && 'Amount' in data) data.Notes = huge();
      if (device) device.Name = huge();
      break;
    }
  }
  return out;
}
