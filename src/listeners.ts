/**
 * The agent's one listener set, for everything that announces events to subscribers: the
 * transports (data, close), the WebSocket (commands, connected, disconnected), the status page's
 * event bus, the outbox's wake-ups and the simulators' changes.
 *
 * `add` returns the unsubscribe function. `emit` calls every listener subscribed when it starts,
 * even if one unsubscribes another meanwhile. A throwing listener never stops the others or the
 * emitter: its error goes to `onListenerError` (ignored by default).
 */
export class Listeners<A extends unknown[]> {
  private readonly set = new Set<(...args: A) => void>();

  constructor(private readonly onListenerError?: (error: unknown) => void) {}

  add(listener: (...args: A) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  get size(): number {
    return this.set.size;
  }

  emit(...args: A): void {
    if (this.set.size === 0) return;
    for (const listener of [...this.set]) {
      try {
        listener(...args);
      } catch (error) {
        this.onListenerError?.(error);
      }
    }
  }
}
