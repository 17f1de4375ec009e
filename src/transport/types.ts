/**
 * A byte-stream link to a device: a serial port, a TCP connection, a HID-to-UART bridge, or an
 * in-process memory pair (simulators). Drivers speak their protocol over this interface and never
 * know which one they got.
 */
export interface Transport {
  readonly kind: TransportSpec['type'];
  /** A human description without secrets, e.g. "serial /dev/serial/by-id/usb-…". */
  readonly description: string;
  readonly isOpen: boolean;
  /**
   * Opens the link. Idempotent while open. Rejects with DEVICE_UNAVAILABLE when the device is
   * missing or refuses; rejects with ABORTED when `signal` fires first.
   */
  open(signal?: AbortSignal): Promise<void>;
  /** Writes every byte or rejects (DEVICE_UNAVAILABLE when the link is gone). */
  write(data: Uint8Array): Promise<void>;
  /** Subscribes to incoming bytes; returns the unsubscribe function. */
  onData(listener: (chunk: Buffer) => void): () => void;
  /**
   * Subscribes to the link closing by itself (unplug, peer hang-up); `error` says why. Not called
   * for `close()`.
   */
  onClose(listener: (error?: Error) => void): () => void;
  /** Idempotent; resolves once the OS resource is released. */
  close(): Promise<void>;
}

export interface SerialSpec {
  type: 'serial';
  /** Prefer stable `/dev/serial/by-id/…` paths. */
  path: string;
  baudRate: number;
  dataBits?: 5 | 6 | 7 | 8;
  stopBits?: 1 | 2;
  parity?: 'none' | 'even' | 'odd';
}

export interface TcpSpec {
  type: 'tcp';
  host: string;
  port: number;
  connectTimeoutMs?: number;
}

/** A HID-to-UART bridge (CP2110-style): report id = byte count, UART set up by feature reports. */
export interface HidSpec {
  type: 'hid';
  vendorId: number;
  productId: number;
  serialNumber?: string;
  /** A hidraw path, when several bridges share VID/PID. */
  path?: string;
  baudRate: number;
}

export interface MemorySpec {
  type: 'memory';
  /** Name of a memory endpoint registered by a simulator. */
  name: string;
}

export type TransportSpec = SerialSpec | TcpSpec | HidSpec | MemorySpec;

/** Creates (does not open) transports. The agent's factory loads serial and HID code lazily. */
export interface TransportFactory {
  create(spec: TransportSpec): Transport;
}
