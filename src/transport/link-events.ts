import { Listeners } from '../listeners.js';

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
