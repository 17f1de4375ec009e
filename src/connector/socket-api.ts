/**
 * The platform's WebSocket as the rest of the agent sees it. Implemented by
 * `ConnectorSocket` (`websocket.ts`).
 *
 * Contract: `start()` connects in the background and keeps reconnecting (backoff with jitter)
 * until `stop()`; liveness is checked by ping, and a silent connection is dropped and redialled.
 * After every successful (re)connect `onConnected` fires, so the caller can catch up with
 * `commands/getAllActive`. Events other than DeviceCommand are ignored; malformed messages are
 * logged and dropped, never thrown.
 */
export interface CommandSocket {
  start(): void;
  /** Closes the connection and stops reconnecting. Idempotent. */
  stop(): Promise<void>;
  readonly state: SocketState;
  /** A DeviceCommand event: the command was created or updated. */
  onCommand(listener: (event: { id: string; state?: string }) => void): () => void;
  /** Fires after every successful connect; `reconnect` is false only for the very first one. */
  onConnected(listener: (info: { reconnect: boolean }) => void): () => void;
  /** Fires when an established connection is lost, or a connect attempt fails. */
  onDisconnected(listener: (info: { reason: string }) => void): () => void;
}

export type SocketState = 'idle' | 'connecting' | 'open' | 'closed';
