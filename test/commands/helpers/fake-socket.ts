import type { CommandSocket, SocketState } from '../../../src/connector/socket-api.js';

type Listener<T> = (value: T) => void;

/** A `CommandSocket` driven by the test: connect, drop, and push DeviceCommand events. */
export class FakeSocket implements CommandSocket {
  state: SocketState = 'idle';
  started = 0;
  stopped = 0;
  private readonly commandListeners = new Set<Listener<{ id: string; state?: string }>>();
  private readonly connectedListeners = new Set<Listener<{ reconnect: boolean }>>();
  private readonly disconnectedListeners = new Set<Listener<{ reason: string }>>();
  private connections = 0;

  start(): void {
    this.started++;
    this.state = 'connecting';
  }

  async stop(): Promise<void> {
    this.stopped++;
    this.state = 'closed';
  }

  onCommand(listener: Listener<{ id: string; state?: string }>): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  onConnected(listener: Listener<{ reconnect: boolean }>): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  onDisconnected(listener: Listener<{ reason: string }>): () => void {
    this.disconnectedListeners.add(listener);
    return () => this.disconnectedListeners.delete(listener);
  }

  connect(): void {
    this.state = 'open';
    const reconnect = this.connections++ > 0;
    for (const l of this.connectedListeners) l({ reconnect });
  }

  drop(reason = 'connection reset'): void {
    this.state = 'connecting';
    for (const l of this.disconnectedListeners) l({ reason });
  }

  event(id: string, state?: string): void {
    for (const l of this.commandListeners) l(state === undefined ? { id } : { id, state });
  }

  get listeners(): number {
    return this.commandListeners.size + this.connectedListeners.size + this.disconnectedListeners.size;
  }
}
