import { Listeners } from '../listeners.js';
import { type Logger, silentLogger } from '../log.js';
import type { TransportSpec } from './types.js';

/**
 * The subscriber side every Transport shares: incoming bytes and the link closing by itself.
 * Listeners belong to the Transport object, not to one OS connection, so a driver subscribes once
 * and keeps receiving across close/open cycles (an unplugged serial port that is opened again, a
 * TCP connection per request). Subclasses emit through `data` and `closed`.
 */
export abstract class LinkEvents {
  protected readonly data = new Listeners<[Buffer]>();
  protected readonly closed = new Listeners<[Error | undefined]>();

  onData(listener: (chunk: Buffer) => void): () => void {
    return this.data.add(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    return this.closed.add(listener);
  }
}

/**
 * What the transports over an OS resource (serial, TCP, HID) share besides their events: what
 * they are, and a log whose lines name the transport.
 */
export abstract class DeviceLink extends LinkEvents {
  protected readonly log: Logger;

  constructor(
    readonly kind: Exclude<TransportSpec['type'], 'memory'>,
    readonly description: string,
    log: Logger | undefined,
  ) {
    super();
    this.log = (log ?? silentLogger).child({ transport: description });
  }
}

/**
 * A native module loaded on first use and shared by every open: `load` runs once; a failed load
 * is forgotten, so the next open tries again (the package may be installed meanwhile).
 */
export function loadOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
