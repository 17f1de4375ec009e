import { createHash } from 'node:crypto';
import type { SimulatedDevice } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { isLoopback } from '../../../src/loopback.js';
import { FROM_PLATFORM } from './address.js';

/**
 * Where `simulate()` starts an RT family's simulated printer: the configured `url`, which must be
 * plain http on a loopback address with a port (a simulated printer never listens elsewhere).
 * Rejects CONFIG_INVALID naming the device, with `example` as the address to write.
 */
export function simulatedPrinterAddress(url: string, deviceName: string, example: string): URL {
  const address = url === FROM_PLATFORM ? undefined : new URL(url);
  if (address?.protocol !== 'http:' || !isLoopback(address.hostname) || !address.port) {
    throw new AgentError(
      'CONFIG_INVALID',
      `${deviceName}: a simulated printer needs options.url like ${example}`,
    );
  }
  return address;
}

/** Six digits for a simulated printer's serial, the same for a device id at every start. */
export function simulatedSerialDigits(deviceId: string): string {
  const digits = BigInt(`0x${createHash('sha256').update(deviceId).digest('hex').slice(0, 12)}`) % 1_000_000n;
  return String(digits).padStart(6, '0');
}

/** Starts a family's simulator where `startSimulatedPrinter` says, with the serial to report. */
export type SimulatedPrinterStart = (where: {
  host: string;
  port: number;
  serial: string;
}) => Promise<{ url: string; close(): Promise<void> }>;

/**
 * An RT family's `simulate()`: its simulator started at the configured loopback address
 * (`simulatedPrinterAddress`, `example` the address to write) with `serial`, described as `what`.
 */
export async function startSimulatedPrinter(
  o: { url: string; device: { name: string }; example: string; serial: string; what: string },
  start: SimulatedPrinterStart,
): Promise<SimulatedDevice> {
  const address = simulatedPrinterAddress(o.url, o.device.name, o.example);
  const printer = await start({ host: address.hostname, port: Number(address.port), serial: o.serial });
  return { description: `${o.what} ${o.serial} at ${printer.url}`, close: () => printer.close() };
}
