import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { errorFields } from '../log.js';
import {
  dataToReports,
  PURGE_BOTH,
  REPORT_PURGE_FIFOS,
  REPORT_UART_ENABLE,
  reportToData,
  uartConfigReport,
} from './cp2110.js';
import { DeviceLink, loadOnFirstUse } from './link-events.js';
import { transportMessages } from './messages.js';
import type { HidSpec, Transport } from './types.js';

/** What node-hid's `devices()` lists. */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  interface?: number;
}

/** The part of node-hid's synchronous `HID` class this transport uses (a fake meets it in tests). */
export interface HidDeviceLike {
  write(values: number[] | Buffer): number;
  sendFeatureReport(data: number[] | Buffer): number;
  getFeatureReport(reportId: number, length: number): number[] | Buffer;
  on(event: 'data', listener: (data: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
  close(): void;
}

/** The part of the node-hid module this transport uses. */
export interface HidModule {
  devices(): HidDeviceInfo[];
  HID: new (path: string) => HidDeviceLike;
}

export interface HidTransportOptions {
  log?: Logger;
  /** Loads node-hid; defaults to a dynamic `import('node-hid')` (needs libusb-1.0 and libudev). */
  load?: () => Promise<HidModule>;
}

/** node-hid is imported only when a HID transport actually opens. */
export async function loadNodeHid(): Promise<HidModule> {
  try {
    const mod = await import('node-hid');
    return mod as unknown as HidModule;
  } catch (error) {
    throw new AgentError('DEVICE_UNAVAILABLE', `node-hid cannot be loaded: ${(error as Error).message}`, {
      cause: error,
      retryable: false,
      notes: transportMessages.hidMissing(),
    });
  }
}

const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;

/** "hid 10c4:ea80 serial … at /dev/hidraw3": the transport's name in logs and errors. */
function hidDescription(spec: HidSpec): string {
  const id = `${hex(spec.vendorId)}:${hex(spec.productId)}`;
  return `hid ${id}${spec.serialNumber ? ` serial ${spec.serialNumber}` : ''}${spec.path ? ` at ${spec.path}` : ''}`;
}

/**
 * A CP2110-style HID-to-UART bridge presented as a byte stream (see `cp2110.ts` for the report
 * layout). `open()` finds the device by VID/PID (and serial number or hidraw path when given),
 * enables the UART, sets baud 8N1 without flow control, purges both FIFOs and checks that the
 * UART reports itself enabled.
 *
 * - `open()` rejects DEVICE_UNAVAILABLE (not plugged in, no permission on /dev/hidraw*, node-hid
 *   missing, bridge refusing its UART) or ABORTED. Re-opening after an unplug works.
 * - `onClose` fires when node-hid reports a read error: the device was unplugged.
 */
export class HidTransport extends DeviceLink implements Transport {
  private device: HidDeviceLike | undefined;
  private readonly module: () => Promise<HidModule>;

  constructor(
    private readonly spec: HidSpec,
    options: HidTransportOptions = {},
  ) {
    super('hid', hidDescription(spec), options.log);
    this.module = loadOnFirstUse(options.load ?? loadNodeHid);
  }

  get isOpen(): boolean {
    return this.device !== undefined;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.device) return;
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    const hid = await this.module();
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    const info = this.find(hid.devices());
    let device: HidDeviceLike;
    try {
      device = new hid.HID(info.path as string);
    } catch (error) {
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: cannot open ${info.path}`, {
        cause: error,
        details: { reason: (error as Error).message },
        notes: transportMessages.hidDenied(),
      });
    }
    try {
      this.configure(device);
    } catch (error) {
      safeClose(device);
      if (error instanceof AgentError) throw error;
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: the bridge refused its UART setup`, {
        cause: error,
      });
    }
    device.on('data', (report: Buffer) => {
      if (this.device !== device) return;
      const bytes = reportToData(report);
      if (bytes.length > 0) this.data.emit(bytes);
    });
    device.on('error', (error: Error) => {
      if (this.device !== device) return;
      this.device = undefined;
      safeClose(device);
      this.log.info('HID device vanished', errorFields(error));
      this.closed.emit(Object.assign(error, { disconnected: true }));
    });
    this.device = device;
    this.log.debug('HID bridge open', { path: info.path });
  }

  async write(data: Uint8Array): Promise<void> {
    const device = this.device;
    if (!device) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: not open`);
    try {
      for (const report of dataToReports(data)) device.write(report);
    } catch (error) {
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: write failed`, { cause: error });
    }
  }

  async close(): Promise<void> {
    const device = this.device;
    this.device = undefined;
    if (device) safeClose(device);
  }

  private find(devices: HidDeviceInfo[]): HidDeviceInfo {
    const matches = devices.filter(
      (d) =>
        d.vendorId === this.spec.vendorId &&
        d.productId === this.spec.productId &&
        d.path !== undefined &&
        (this.spec.serialNumber === undefined || d.serialNumber === this.spec.serialNumber) &&
        (this.spec.path === undefined || d.path === this.spec.path),
    );
    const first = matches[0];
    if (!first) {
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: not plugged in`, {
        notes: transportMessages.encoderUnplugged(),
      });
    }
    if (matches.length > 1) {
      this.log.warn('several matching HID bridges; using the first (set serialNumber or path)', {
        paths: matches.map((m) => m.path),
      });
    }
    return first;
  }

  private configure(device: HidDeviceLike): void {
    device.sendFeatureReport([REPORT_UART_ENABLE, 0x01]);
    device.sendFeatureReport(
      uartConfigReport({
        baudRate: this.spec.baudRate,
        parity: 'none',
        flowControl: false,
        dataBits: 8,
        stopBits: 1,
      }),
    );
    device.sendFeatureReport([REPORT_PURGE_FIFOS, PURGE_BOTH]);
    const enabled = Array.from(device.getFeatureReport(REPORT_UART_ENABLE, 2));
    // Linux hidraw returns the report id first; other back ends may not.
    const flag = enabled[0] === REPORT_UART_ENABLE ? enabled[1] : enabled[0];
    if (flag !== 1) {
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: the bridge did not enable its UART`, {
        details: { report: enabled },
      });
    }
  }
}

function safeClose(device: HidDeviceLike): void {
  try {
    device.removeAllListeners('data');
    device.close();
  } catch {
    // Closing a vanished device may throw; it is gone either way.
  }
}
