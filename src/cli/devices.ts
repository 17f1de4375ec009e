import { type CandidateDevice, listCandidateDevices } from '../transport/discovery.js';
import { type CliIo, line } from './io.js';

/** `frontdesk-agent devices`: serial ports and HID devices that may be encoders or bridges. */
export async function devicesCommand(opts: { json: boolean }, io: CliIo): Promise<number> {
  const result = await listCandidateDevices();
  if (opts.json) {
    line(io.stdout, JSON.stringify(result, null, 2));
    return 0;
  }
  for (const problem of result.problems) line(io.stderr, `note: ${problem}`);
  if (result.devices.length === 0) {
    line(io.stdout, 'No serial ports or HID devices found.');
    return 0;
  }
  for (const device of result.devices) line(io.stdout, formatDevice(device));
  return 0;
}

function hex(n: number | undefined): string | undefined {
  return n === undefined ? undefined : `0x${n.toString(16).padStart(4, '0')}`;
}

function formatDevice(d: CandidateDevice): string {
  const facts = [
    d.devicePath && d.devicePath !== d.path ? `(${d.devicePath})` : undefined,
    d.vendorId !== undefined ? `VID ${hex(d.vendorId)} PID ${hex(d.productId)}` : undefined,
    d.serialNumber ? `serial ${d.serialNumber}` : undefined,
    [d.manufacturer, d.product].filter(Boolean).join(' ') || undefined,
  ].filter(Boolean);
  return [
    `${d.kind.padEnd(6)} ${d.path} ${facts.join('  ')}`,
    `       ${d.role}: ${d.note}`,
    `       options: ${JSON.stringify(d.suggestedOptions)}`,
  ].join('\n');
}
