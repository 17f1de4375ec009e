import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { HidModule } from './hid.js';
import { LinkEvents } from './link-events.js';
import type { SerialPortFactory } from './serial.js';
import type { Transport, TransportFactory, TransportSpec } from './types.js';

/**
 * Where `{type: 'memory'}` endpoints come from: named in-process links to a simulator. The factory
 * knows only this interface; the one implementation, `MemoryHub`, is a test double and lives in
 * `./testing/` with the other doubles, so production code never imports it.
 */
export interface MemoryEndpoints {
  /** A transport for the endpoint `name`; opening it connects to whatever listens there. */
  connect(name: string): Transport;
}

export interface TransportFactoryOptions {
  log: Logger;
  /** Named in-process endpoints for `{type: 'memory'}` (simulators); without it they never open. */
  memory?: MemoryEndpoints;
  /** Replaces the node-hid loader (tests inject a fake CP2110 here). */
  loadHid?: () => Promise<HidModule>;
  /** Replaces the serialport loader (tests may inject serialport's mock). */
  loadSerialPort?: () => Promise<SerialPortFactory>;
}

/** A description without secrets, known before any module is loaded. */
export function describeSpec(spec: TransportSpec): string {
  switch (spec.type) {
    case 'serial':
      return `serial ${spec.path}`;
    case 'tcp':
      return `tcp ${spec.host}:${spec.port}`;
    case 'hid': {
      const id = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
      return `hid ${id(spec.vendorId)}:${id(spec.productId)}${spec.serialNumber ? ` serial ${spec.serialNumber}` : ''}${spec.path ? ` at ${spec.path}` : ''}`;
    }
    case 'memory':
      return `memory ${spec.name}`;
  }
}

/**
 * The agent's TransportFactory. `create()` is synchronous and loads nothing: serial and HID code
 * (and with it serialport's and node-hid's native bindings) is imported on the first `open()`, so
 * a site without HID never loads node-hid. Listeners subscribed before that first open are kept.
 */
export function createTransportFactory(options: TransportFactoryOptions): TransportFactory {
  return {
    create(spec: TransportSpec): Transport {
      const log = options.log.child({ transport: describeSpec(spec) });
      switch (spec.type) {
        case 'serial':
          return new LazyTransport(spec, async () => {
            const { SerialTransport } = await import('./serial.js');
            return new SerialTransport(spec, {
              log,
              ...(options.loadSerialPort ? { load: options.loadSerialPort } : {}),
            });
          });
        case 'hid':
          return new LazyTransport(spec, async () => {
            const { HidTransport } = await import('./hid.js');
            return new HidTransport(spec, { log, ...(options.loadHid ? { load: options.loadHid } : {}) });
          });
        case 'tcp':
          return new LazyTransport(spec, async () => {
            const { TcpTransport } = await import('./tcp.js');
            return new TcpTransport(spec, { log });
          });
        case 'memory': {
          const hub = options.memory;
          if (hub) return hub.connect(spec.name);
          return new LazyTransport(spec, async () => {
            throw new AgentError(
              'DEVICE_UNAVAILABLE',
              `memory ${spec.name}: no simulator runs in this agent`,
              {
                retryable: false,
              },
            );
          });
        }
      }
    },
  };
}

/** Defers building the real transport (and importing its module) until the first open(). */
class LazyTransport extends LinkEvents implements Transport {
  readonly kind: TransportSpec['type'];
  readonly description: string;
  private inner: Transport | undefined;
  private loading: Promise<Transport> | undefined;

  constructor(
    spec: TransportSpec,
    private readonly build: () => Promise<Transport>,
  ) {
    super();
    this.kind = spec.type;
    this.description = describeSpec(spec);
  }

  get isOpen(): boolean {
    return this.inner?.isOpen ?? false;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    this.loading ??= this.build().then((inner) => {
      inner.onData((chunk) => this.data.emit(chunk));
      inner.onClose((error) => this.closed.emit(error));
      this.inner = inner;
      return inner;
    });
    let inner: Transport;
    try {
      inner = await this.loading;
    } catch (error) {
      this.loading = undefined;
      throw error;
    }
    await inner.open(signal);
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.inner) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: not open`);
    await this.inner.write(data);
  }

  async close(): Promise<void> {
    await this.inner?.close();
  }
}
