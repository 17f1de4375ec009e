import { readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { CP2110_PRODUCT_ID, CP2110_VENDOR_ID } from './cp2110.js';
import type { HidDeviceInfo, HidModule } from './hid.js';

/**
 * What `frontdesk-agent devices` shows: serial ports (with their stable by-id paths) and HID
 * devices, flagged when they look like a key encoder, a CP2110 HID-to-UART bridge or a plain
 * USB-serial adapter, each with the `options:` a config would need to use it.
 */

export type CandidateRole = 'encoder' | 'cp2110-bridge' | 'usb-serial' | 'unknown';

export interface CandidateDevice {
  kind: 'serial' | 'hid';
  /** The path to put in a config: a `/dev/serial/by-id/…` link when one exists. */
  path: string;
  /** The kernel node behind it (`/dev/ttyUSB0`, `/dev/hidraw3`). */
  devicePath?: string;
  vendorId?: number;
  productId?: number;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  role: CandidateRole;
  /** One line for a person. */
  note: string;
  /** The salto-encoder `options:` that would use this device. */
  suggestedOptions: Record<string, unknown>;
}

export interface DiscoveryResult {
  devices: CandidateDevice[];
  /** Sources that could not be read, in words IT understands; never fatal. */
  problems: string[];
}

/** serialport's `SerialPort.list()` entry (vendor/product ids are hex strings there). */
export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  serialNumber?: string;
  vendorId?: string;
  productId?: string;
}

export interface DiscoverySources {
  /** Defaults to the `/dev/serial/by-id` directory: link name → target. */
  byId?: () => Promise<Array<{ link: string; target: string }>>;
  /** Defaults to serialport's `SerialPort.list()`. */
  serialPorts?: () => Promise<SerialPortInfo[]>;
  /** Defaults to node-hid's `devices()`, imported only here. */
  hidDevices?: () => Promise<HidDeviceInfo[]>;
}

const ENCODER_VENDORS = /salto|onity|vingcard|assa ?abloy|dormakaba|kaba|hune|orbita|miwa|saflok/i;
const USB_SERIAL_VENDORS = new Map<number, string>([
  [0x0403, 'FTDI'],
  [0x067b, 'Prolific'],
  [0x1a86, 'WCH CH34x'],
  [0x10c4, 'Silicon Labs CP210x'],
]);

const BY_ID_DIR = '/dev/serial/by-id';

async function readByIdLinks(): Promise<Array<{ link: string; target: string }>> {
  let names: string[];
  try {
    names = await readdir(BY_ID_DIR);
  } catch {
    return []; // No USB serial device plugged in: the directory does not exist.
  }
  const out: Array<{ link: string; target: string }> = [];
  for (const name of names) {
    const link = join(BY_ID_DIR, name);
    try {
      out.push({ link, target: await realpath(link) });
    } catch {
      // A link whose device vanished meanwhile.
    }
  }
  return out;
}

async function listSerialPorts(): Promise<SerialPortInfo[]> {
  const { SerialPort } = await import('serialport');
  return SerialPort.list();
}

async function listHidDevices(): Promise<HidDeviceInfo[]> {
  const hid = (await import('node-hid')) as unknown as HidModule;
  return hid.devices();
}

function parseHexId(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const n = Number.parseInt(value, 16);
  return Number.isNaN(n) ? undefined : n;
}

function classify(
  vendorId: number | undefined,
  productId: number | undefined,
  text: string,
): { role: CandidateRole; note: string } {
  if (ENCODER_VENDORS.test(text)) return { role: 'encoder', note: 'looks like a key-card encoder' };
  if (vendorId === CP2110_VENDOR_ID && productId === CP2110_PRODUCT_ID) {
    return { role: 'cp2110-bridge', note: 'CP2110 HID-to-UART bridge: many USB key encoders sit behind one' };
  }
  const adapter = vendorId === undefined ? undefined : USB_SERIAL_VENDORS.get(vendorId);
  if (adapter) return { role: 'usb-serial', note: `${adapter} USB-serial adapter` };
  return { role: 'unknown', note: 'unrecognised device' };
}

/**
 * Lists candidate devices. Never rejects: a source that fails (serialport needs `udevadm` to
 * enumerate, node-hid needs libusb/libudev) becomes a line in `problems`.
 */
export async function listCandidateDevices(sources: DiscoverySources = {}): Promise<DiscoveryResult> {
  const problems: string[] = [];
  const devices: CandidateDevice[] = [];
  const links = await (sources.byId ?? readByIdLinks)().catch((e: Error) => {
    problems.push(`cannot read ${BY_ID_DIR}: ${e.message}`);
    return [];
  });
  const ports = await (sources.serialPorts ?? listSerialPorts)().catch((e: Error) => {
    problems.push(`serial port enumeration failed (${e.message}); by-id links are still listed`);
    return [] as SerialPortInfo[];
  });
  const seen = new Set<string>();
  for (const port of ports) {
    const link = links.find((l) => l.target === port.path);
    const vendorId = parseHexId(port.vendorId);
    const productId = parseHexId(port.productId);
    const path = link?.link ?? port.path;
    seen.add(port.path);
    devices.push(
      serialCandidate(path, port.path, vendorId, productId, port.manufacturer, port.serialNumber, link?.link),
    );
  }
  for (const link of links) {
    if (seen.has(link.target)) continue;
    devices.push(
      serialCandidate(link.link, link.target, undefined, undefined, undefined, undefined, link.link),
    );
  }
  const hid = await (sources.hidDevices ?? listHidDevices)().catch((e: Error) => {
    problems.push(`HID devices cannot be listed (${e.message}); is libusb-1.0-0/libudev1 installed?`);
    return [] as HidDeviceInfo[];
  });
  for (const d of hid) {
    if (!d.path) continue;
    const { role, note } = classify(d.vendorId, d.productId, `${d.manufacturer ?? ''} ${d.product ?? ''}`);
    const candidate: CandidateDevice = {
      kind: 'hid',
      path: d.path,
      devicePath: d.path,
      vendorId: d.vendorId,
      productId: d.productId,
      role,
      note,
      suggestedOptions: {
        transport: 'hid',
        vendorId: d.vendorId,
        productId: d.productId,
        ...(d.serialNumber ? { serialNumber: d.serialNumber } : { path: d.path }),
      },
    };
    if (d.serialNumber) candidate.serialNumber = d.serialNumber;
    if (d.manufacturer) candidate.manufacturer = d.manufacturer;
    if (d.product) candidate.product = d.product;
    devices.push(candidate);
  }
  const rank: Record<CandidateRole, number> = { encoder: 0, 'cp2110-bridge': 1, 'usb-serial': 2, unknown: 3 };
  devices.sort((a, b) => rank[a.role] - rank[b.role] || a.path.localeCompare(b.path));
  return { devices, problems };
}

function serialCandidate(
  path: string,
  devicePath: string,
  vendorId: number | undefined,
  productId: number | undefined,
  manufacturer: string | undefined,
  serialNumber: string | undefined,
  byId: string | undefined,
): CandidateDevice {
  const { role, note } = classify(vendorId, productId, `${manufacturer ?? ''} ${byId ?? ''}`);
  const candidate: CandidateDevice = {
    kind: 'serial',
    path,
    devicePath,
    role,
    note: byId ? note : `${note}; no /dev/serial/by-id link, so this path may change`,
    suggestedOptions: { transport: 'serial', path, baudRate: 9600 },
  };
  if (vendorId !== undefined) candidate.vendorId = vendorId;
  if (productId !== undefined) candidate.productId = productId;
  if (manufacturer) candidate.manufacturer = manufacturer;
  if (serialNumber) candidate.serialNumber = serialNumber;
  return candidate;
}
