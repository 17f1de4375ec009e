import { deviceTextDeep } from '../drivers-api/device-text.js';
import type { DeviceType, DiscoveredDevice, DriverRegistry } from '../drivers-api/types.js';
import { silentLogger } from '../log.js';
import { type CandidateDevice, type DiscoveryResult, listCandidateDevices } from '../transport/discovery.js';
import { createHttpClient } from '../transport/http.js';
import { type CliIo, line } from './io.js';

/** How long `devices` listens for printers announcing themselves on the LAN (mDNS). */
export const LAN_BROWSE_MS = 3000;

export interface DevicesOptions {
  json: boolean;
  /** Browse the LAN (mDNS) for network printers; `--no-lan` turns it off. */
  lan: boolean;
}

export interface FoundByDriver extends DiscoveredDevice {
  driver: string;
  /** The family's device type: the line starts `keys` for a key encoder, `print` otherwise. */
  deviceType: DeviceType;
}

export interface DevicesDeps {
  registry?: DriverRegistry;
  listCandidates?: () => Promise<DiscoveryResult>;
}

/**
 * `frontdesk-agent devices`: serial ports and HID devices that may be encoders or bridges, and
 * what each driver family can find by itself (the office printer driver: local CUPS queues and
 * IPP printers on the LAN; the FIAS driver: this PC's addresses a lock server can connect to),
 * with the `options:` that would use each.
 */
export async function devicesCommand(
  opts: DevicesOptions,
  io: CliIo,
  deps: DevicesDeps = {},
): Promise<number> {
  const result = await (deps.listCandidates ?? listCandidateDevices)();
  const found: FoundByDriver[] = [];
  const problems = [...result.problems];
  for (const [kind, load] of deps.registry ?? []) {
    let factory: Awaited<ReturnType<typeof load>>;
    try {
      factory = await load();
    } catch {
      continue;
    }
    if (!factory.discover) continue;
    const signal = AbortSignal.timeout(LAN_BROWSE_MS + 10_000);
    try {
      const report = await factory.discover({
        http: createHttpClient,
        log: silentLogger,
        signal,
        browseMs: opts.lan ? LAN_BROWSE_MS : 0,
      });
      found.push(...report.devices.map((d) => ({ driver: kind, deviceType: factory.deviceType, ...d })));
      problems.push(...report.problems);
    } catch (e) {
      problems.push(`${kind}: could not look for devices (${(e as Error).message})`);
    }
  }
  // Everything below was written by a device, a USB descriptor or an mDNS announcement from
  // anyone on the LAN: no control character reaches the terminal (an ESC would drive it; JSON
  // leaves C1 controls and bidi overrides raw). Issue 27, finding 7.
  const shown = deviceTextDeep({ devices: result.devices, found, problems });
  if (opts.json) {
    line(io.stdout, JSON.stringify(shown, null, 2));
    return 0;
  }
  for (const problem of shown.problems) line(io.stderr, `note: ${problem}`);
  if (shown.devices.length === 0 && shown.found.length === 0) {
    line(io.stdout, 'No serial ports, HID devices or printers found.');
    return 0;
  }
  for (const device of shown.devices) line(io.stdout, formatDevice(device));
  for (const device of shown.found) line(io.stdout, formatFound(device));
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

function formatFound(d: FoundByDriver): string {
  return [
    `${(d.deviceType === 'KeyCutter' ? 'keys' : 'print').padEnd(6)} ${d.name}  ${d.address}`,
    `       ${d.source}${d.note ? `: ${d.note}` : ''}`,
    `       driver: ${d.driver}  options: ${JSON.stringify(d.suggestedOptions)}`,
  ].join('\n');
}
