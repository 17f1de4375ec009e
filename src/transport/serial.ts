import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { errorFields } from '../log.js';
import { DeviceLink, loadOnFirstUse } from './link-events.js';
import { transportMessages } from './messages.js';
import { type BindingLike, eofAwareBinding } from './serial-eof.js';
import type { SerialSpec, Transport } from './types.js';

/** The part of serialport's `SerialPort` this transport uses (also met by `SerialPortMock`). */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback?: (error: Error | null) => void): void;
  write(data: Buffer, callback?: (error: Error | null | undefined) => void): boolean;
  drain(callback: (error: Error | null) => void): void;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: (error?: Error & { disconnected?: boolean }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface SerialPortOptions {
  path: string;
  baudRate: number;
  dataBits: 5 | 6 | 7 | 8;
  stopBits: 1 | 2;
  parity: 'none' | 'even' | 'odd';
  autoOpen: false;
}

/** Makes a (closed) port object; the default builds serialport's `SerialPort`. */
export type SerialPortFactory = (options: SerialPortOptions) => SerialPortLike;

export interface SerialTransportOptions {
  log?: Logger;
  /** Loads the port factory; defaults to the `serialport` package with `eofAwareBinding`. */
  load?: () => Promise<SerialPortFactory>;
}

async function loadSerialPort(): Promise<SerialPortFactory> {
  const { SerialPort } = await import('serialport');
  const binding = eofAwareBinding(SerialPort.binding as unknown as BindingLike);
  // SerialPort's constructor takes `binding` (its options type omits it): the wrapped one wins.
  type PortOptions = ConstructorParameters<typeof SerialPort>[0];
  return (options) => new SerialPort({ ...options, binding } as unknown as PortOptions);
}

/**
 * Maps an open() failure to what staff can act on. serialport errors carry the errno in the
 * message ("Error: No such file or directory, cannot open …") and sometimes not in `code`.
 */
export function serialOpenError(description: string, error: Error): AgentError {
  const text = `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`;
  const base = { cause: error, details: { reason: error.message } };
  if (/ENOENT|No such file/i.test(text)) {
    return new AgentError('DEVICE_UNAVAILABLE', `${description}: not found (unplugged, or wrong path)`, {
      ...base,
      notes: transportMessages.encoderUnplugged(),
    });
  }
  if (/EACCES|Permission denied/i.test(text)) {
    return new AgentError('DEVICE_UNAVAILABLE', `${description}: permission denied`, {
      ...base,
      retryable: false,
      notes: transportMessages.serialDenied(),
    });
  }
  if (/EBUSY|lock|Resource temporarily unavailable/i.test(text)) {
    return new AgentError('DEVICE_UNAVAILABLE', `${description}: in use by another program`, {
      ...base,
      notes: transportMessages.serialBusy(),
    });
  }
  return new AgentError('DEVICE_UNAVAILABLE', `${description}: cannot open (${error.message})`, base);
}

/**
 * A serial port (USB-serial adapters under `/dev/serial/by-id/…`, or a pseudo-terminal in tests).
 *
 * - Each `open()` creates a fresh port object, so a port that vanished (USB unplug) can be opened
 *   again once it is back; listeners stay subscribed across re-opens.
 * - A reader is attached from the moment the port opens, so a vanished peer is noticed even when
 *   nobody is waiting for data: `onClose` then fires with serialport's `disconnected` error.
 * - `open()` rejects DEVICE_UNAVAILABLE (missing, permission, locked) or ABORTED; `write()`
 *   rejects DEVICE_UNAVAILABLE when the port is gone.
 * - Pseudo-terminals ignore baud, parity and modem lines; that is fine for tests.
 */
export class SerialTransport extends DeviceLink implements Transport {
  private port: SerialPortLike | undefined;
  private readonly closingPorts = new WeakSet<SerialPortLike>();
  private readonly factory: () => Promise<SerialPortFactory>;

  constructor(
    private readonly spec: SerialSpec,
    options: SerialTransportOptions = {},
  ) {
    super('serial', `serial ${spec.path}`, options.log);
    this.factory = loadOnFirstUse(options.load ?? loadSerialPort);
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.isOpen) return;
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    const makePort = await this.factory();
    const port = makePort({
      path: this.spec.path,
      baudRate: this.spec.baudRate,
      dataBits: this.spec.dataBits ?? 8,
      stopBits: this.spec.stopBits ?? 1,
      parity: this.spec.parity ?? 'none',
      autoOpen: false,
    });
    port.on('data', (chunk) => {
      if (this.port === port) this.data.emit(chunk);
    });
    port.on('error', (error) => this.log.debug('serial error', errorFields(error)));
    port.on('close', (error) => {
      if (this.port === port) this.port = undefined;
      if (this.closingPorts.has(port)) return;
      this.log.info('serial port closed by itself', errorFields(error));
      this.closed.emit(error ?? new Error(`${this.description}: closed`));
    });
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        settled = true;
        reject(new AgentError('ABORTED', `${this.description}: open aborted`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      port.open((error) => {
        signal?.removeEventListener('abort', onAbort);
        if (settled) {
          // The caller gave up; release the port if it opened after all.
          if (!error) this.release(port);
          return;
        }
        settled = true;
        if (error) reject(serialOpenError(this.description, error));
        else resolve();
      });
    });
    this.port = port;
    this.log.debug('serial port open');
  }

  async write(data: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port?.isOpen) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: not open`);
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) =>
        reject(new AgentError('DEVICE_UNAVAILABLE', `${this.description}: write failed`, { cause: error }));
      port.write(Buffer.from(data), (error) => {
        if (error) return fail(error);
        port.drain((drainError) => (drainError ? fail(drainError) : resolve()));
      });
    });
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    if (port) await this.release(port);
  }

  private release(port: SerialPortLike): Promise<void> {
    this.closingPorts.add(port);
    if (!port.isOpen) return Promise.resolve();
    return new Promise((resolve) => port.close(() => resolve()));
  }
}
