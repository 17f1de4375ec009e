import { EventEmitter } from 'node:events';
import {
  CP2110_PRODUCT_ID,
  CP2110_VENDOR_ID,
  MAX_DATA_PER_REPORT,
  parseUartConfigReport,
  REPORT_PURGE_FIFOS,
  REPORT_UART_CONFIG,
  REPORT_UART_ENABLE,
  reportToData,
  type UartConfig,
} from '../cp2110.js';
import type { HidDeviceInfo, HidDeviceLike, HidModule } from '../hid.js';
import type { Transport } from '../types.js';

/**
 * A fake CP2110 HID-to-UART bridge with node-hid's `HID` surface, for tests and demos without
 * hardware. It keeps every report the host sent, applies the UART feature reports like the chip
 * (data only flows once the UART is enabled) and, when given a `uart` connector, carries the
 * bytes to and from a device (e.g. the encoder simulator behind a memory endpoint).
 */
export interface FakeCp2110Options {
  serialNumber?: string;
  path?: string;
  /** Opens the UART side, e.g. `() => hub.connect('encoder')`. Without it, use `receive()`. */
  uart?: () => Transport;
  /** Largest data count per input report (1..63); smaller values split replies more. */
  inputChunk?: number;
}

export class FakeCp2110 {
  readonly info: HidDeviceInfo;
  /** Every feature report the host sent, report id first. */
  readonly featureReports: number[][] = [];
  /** Every output report the host wrote, report id first. */
  readonly outputReports: number[][] = [];
  /** The UART bytes the host sent, in order. */
  readonly sent: Buffer[] = [];
  uartEnabled = false;
  uartConfig: UartConfig | undefined;
  purges = 0;
  private plugged = true;
  private handle: FakeHidHandle | undefined;

  constructor(private readonly options: FakeCp2110Options = {}) {
    this.info = {
      vendorId: CP2110_VENDOR_ID,
      productId: CP2110_PRODUCT_ID,
      path: options.path ?? '/dev/hidraw-fake0',
      serialNumber: options.serialNumber ?? 'FAKE0001',
      manufacturer: 'Silicon Laboratories',
      product: 'CP2110 HID USB-to-UART Bridge',
      interface: 0,
    };
  }

  /** Largest data count per input report. */
  get inputChunk(): number {
    return Math.min(MAX_DATA_PER_REPORT, Math.max(1, this.options.inputChunk ?? MAX_DATA_PER_REPORT));
  }

  get isPlugged(): boolean {
    return this.plugged;
  }

  /** A node-hid-like module listing the given fakes (only the plugged ones). */
  static module(...fakes: FakeCp2110[]): HidModule {
    return {
      devices: () => fakes.filter((f) => f.plugged).map((f) => ({ ...f.info })),
      // A plain function: `new HID(path)` then yields the handle it returns.
      HID: function openFake(path: string): HidDeviceLike {
        const fake = fakes.find((f) => f.plugged && f.info.path === path);
        if (!fake) throw new Error(`could not open HID device ${path}`);
        return fake.attach();
      } as unknown as HidModule['HID'],
    };
  }

  /** Feeds bytes as if the UART had received them from the device. */
  receive(bytes: Uint8Array): void {
    this.handle?.input(bytes);
  }

  /** Pulls the USB cable: an open handle emits `error` like node-hid on a failed read. */
  unplug(): void {
    this.plugged = false;
    const handle = this.handle;
    this.handle = undefined;
    this.uartEnabled = false;
    handle?.vanish();
  }

  replug(): void {
    this.plugged = true;
  }

  /** @internal opens a handle, as `new HID(path)` does. */
  attach(): HidDeviceLike {
    const handle = new FakeHidHandle(this, this.options.uart?.());
    this.handle = handle;
    return handle;
  }

  /** @internal */
  feature(report: number[]): void {
    this.featureReports.push(report);
    if (report[0] === REPORT_UART_ENABLE) this.uartEnabled = report[1] === 1;
    if (report[0] === REPORT_PURGE_FIFOS) this.purges++;
    if (report[0] === REPORT_UART_CONFIG) this.uartConfig = parseUartConfigReport(report);
  }

  /** @internal */
  closed(handle: FakeHidHandle): void {
    if (this.handle === handle) {
      this.handle = undefined;
      this.uartEnabled = false;
    }
  }
}

class FakeHidHandle extends EventEmitter implements HidDeviceLike {
  private open = true;
  private uartOpening: Promise<void> | undefined;

  constructor(
    private readonly fake: FakeCp2110,
    private readonly uart: Transport | undefined,
  ) {
    super();
    if (uart) {
      uart.onData((bytes) => this.input(bytes));
      uart.onClose(() => this.fake.unplug());
    }
  }

  write(values: number[] | Buffer): number {
    if (!this.open) throw new Error('Cannot write to hid device');
    const report = Array.from(values);
    this.fake.outputReports.push(report);
    const bytes = reportToData(Uint8Array.from(report));
    if (this.fake.uartEnabled && bytes.length > 0) {
      this.fake.sent.push(bytes);
      const uart = this.uart;
      if (uart) {
        this.uartOpening ??= uart.open();
        void this.uartOpening.then(() => uart.write(bytes)).catch(() => this.fake.unplug());
      }
    }
    return report.length;
  }

  sendFeatureReport(data: number[] | Buffer): number {
    if (!this.open) throw new Error('could not send feature report to device');
    const report = Array.from(data);
    this.fake.feature(report);
    if (report[0] === REPORT_UART_ENABLE && report[1] === 1 && this.uart) {
      this.uartOpening ??= this.uart.open();
      this.uartOpening.catch(() => this.fake.unplug());
    }
    return report.length;
  }

  getFeatureReport(reportId: number, length: number): number[] {
    if (!this.open) throw new Error('could not get feature report from device');
    const body: number[] = [];
    if (reportId === REPORT_UART_ENABLE) body.push(this.fake.uartEnabled ? 1 : 0);
    const out = [reportId, ...body];
    while (out.length < length) out.push(0);
    return out.slice(0, Math.max(length, 1));
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.fake.closed(this);
    void this.uart?.close();
  }

  /** @internal bytes from the UART, chunked into input reports padded to 64 bytes. */
  input(bytes: Uint8Array): void {
    if (!this.open || !this.fake.uartEnabled) return;
    const chunk = this.fake.inputChunk;
    for (let offset = 0; offset < bytes.length; offset += chunk) {
      const part = bytes.subarray(offset, offset + chunk);
      const report = Buffer.alloc(64);
      report[0] = part.length;
      report.set(part, 1);
      this.emit('data', report);
    }
  }

  /** @internal */
  vanish(): void {
    if (!this.open) return;
    this.open = false;
    void this.uart?.close();
    this.emit('error', new Error('could not read from HID device'));
  }
}
