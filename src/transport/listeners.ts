/**
 * A small listener set shared by the transports. Listeners belong to the Transport object, not to
 * one OS connection, so a driver subscribes once and keeps receiving across close/open cycles
 * (an unplugged serial port that is opened again, a TCP connection per request).
 */
export class Listeners<A extends unknown[]> {
  private readonly set = new Set<(...args: A) => void>();

  add(listener: (...args: A) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  get size(): number {
    return this.set.size;
  }

  /** Calls every listener; a throwing listener never stops the others or the transport. */
  emit(...args: A): void {
    for (const listener of [...this.set]) {
      try {
        listener(...args);
      } catch {
        // A listener's bug must not tear down the link.
      }
    }
  }
}
