import { AgentError } from '../../errors.js';
import type { MemoryEndpoints } from '../factory.js';
import { LinkEvents } from '../link-events.js';
import type { Transport } from '../types.js';

/**
 * In-process byte links for simulators and tests. A pair's two ends behave like the two sides of
 * a cable: bytes written on one end arrive, in order and asynchronously (a microtask later), at
 * the other; closing one end makes the other end's `onClose` fire, like a peer hanging up.
 */

function unavailable(message: string, cause?: unknown): AgentError {
  return new AgentError('DEVICE_UNAVAILABLE', message, cause === undefined ? {} : { cause });
}

/** Why a memory link went away; `disconnected` mirrors serialport's unplug errors. */
export class LinkLostError extends Error {
  override readonly name = 'LinkLostError';
  readonly disconnected = true;
}

interface Wire {
  severed: boolean;
  ends: [MemoryTransport, MemoryTransport];
}

/** One end of an in-process pair. Re-opening after the link was severed rejects. */
export class MemoryTransport extends LinkEvents implements Transport {
  readonly kind = 'memory' as const;
  private opened = false;
  /** Set by createMemoryPair. */
  wire!: Wire;

  constructor(readonly description: string) {
    super();
  }

  get isOpen(): boolean {
    return this.opened && !this.wire.severed;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    if (this.wire.severed) throw unavailable(`${this.description}: the link is gone`);
    this.opened = true;
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.isOpen) throw unavailable(`${this.description}: not open`);
    const peer = this.wire.ends[0] === this ? this.wire.ends[1] : this.wire.ends[0];
    const copy = Buffer.from(data);
    queueMicrotask(() => peer.deliver(copy));
  }

  async close(): Promise<void> {
    if (this.wire.severed) {
      this.opened = false;
      return;
    }
    this.opened = false;
    this.wire.severed = true;
    const peer = this.wire.ends[0] === this ? this.wire.ends[1] : this.wire.ends[0];
    queueMicrotask(() => peer.lost(new LinkLostError(`${peer.description}: the other end closed`)));
  }

  /** Bytes arriving from the peer; dropped while this end is not open (nobody reads the line). */
  private deliver(chunk: Buffer): void {
    if (this.isOpen) this.data.emit(chunk);
  }

  /** The link went away without this end asking. */
  lost(error: Error): void {
    const wasOpen = this.opened;
    this.opened = false;
    if (wasOpen) this.closed.emit(error);
  }
}

export interface MemoryPair {
  /** The host (driver) end. */
  a: MemoryTransport;
  /** The device (simulator) end. */
  b: MemoryTransport;
  /** Cuts the cable: both open ends see `onClose` with a `disconnected` error. */
  sever(reason?: string): void;
}

export function createMemoryPair(name = 'pair'): MemoryPair {
  const a = new MemoryTransport(`memory ${name} (host end)`);
  const b = new MemoryTransport(`memory ${name} (device end)`);
  const wire: Wire = { severed: false, ends: [a, b] };
  a.wire = wire;
  b.wire = wire;
  return {
    a,
    b,
    sever(reason = 'unplugged') {
      if (wire.severed) return;
      wire.severed = true;
      queueMicrotask(() => {
        a.lost(new LinkLostError(`${a.description}: ${reason}`));
        b.lost(new LinkLostError(`${b.description}: ${reason}`));
      });
    },
  };
}

type ConnectionListener = (device: MemoryTransport) => void;

interface Endpoint {
  listener: ConnectionListener;
  links: Set<MemoryPair>;
}

/**
 * Named in-process endpoints: a simulator `listen`s under a name, and every `{type: 'memory',
 * name}` transport that opens gets a fresh pair whose device end is handed to the listener — the
 * in-process equivalent of plugging a cable in. Removing the listener is unplugging: open links
 * are severed and opens reject with DEVICE_UNAVAILABLE until someone listens again.
 */
export class MemoryHub implements MemoryEndpoints {
  private readonly endpoints = new Map<string, Endpoint>();

  /** Registers `name`; returns the function that unplugs it. Replaces an earlier listener. */
  listen(name: string, listener: ConnectionListener): () => void {
    this.unplug(name);
    const endpoint: Endpoint = { listener, links: new Set() };
    this.endpoints.set(name, endpoint);
    return () => {
      if (this.endpoints.get(name) === endpoint) this.unplug(name);
    };
  }

  has(name: string): boolean {
    return this.endpoints.has(name);
  }

  /** Severs every open link of `name` and forgets it. Idempotent. */
  unplug(name: string): void {
    const endpoint = this.endpoints.get(name);
    if (!endpoint) return;
    this.endpoints.delete(name);
    for (const link of endpoint.links) link.sever('unplugged');
  }

  /** A transport for `{type: 'memory', name}`; opening it connects to the listener. */
  connect(name: string): Transport {
    return new MemoryClientTransport(this, name);
  }

  /** @internal used by MemoryClientTransport. */
  dial(name: string): MemoryPair | undefined {
    const endpoint = this.endpoints.get(name);
    if (!endpoint) return undefined;
    const pair = createMemoryPair(name);
    endpoint.links.add(pair);
    pair.b.onClose(() => endpoint.links.delete(pair));
    pair.a.onClose(() => endpoint.links.delete(pair));
    void pair.b.open();
    endpoint.listener(pair.b);
    return pair;
  }
}

/** The host side of a hub endpoint; each open() dials a new link, listeners persist across them. */
class MemoryClientTransport extends LinkEvents implements Transport {
  readonly kind = 'memory' as const;
  readonly description: string;
  private link: MemoryPair | undefined;
  private unsubscribe: Array<() => void> = [];

  constructor(
    private readonly hub: MemoryHub,
    private readonly name: string,
  ) {
    super();
    this.description = `memory ${name}`;
  }

  get isOpen(): boolean {
    return this.link?.a.isOpen ?? false;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    if (this.isOpen) return;
    this.detach();
    const link = this.hub.dial(this.name);
    if (!link) throw unavailable(`${this.description}: nothing is listening (device unplugged)`);
    this.link = link;
    this.unsubscribe = [
      link.a.onData((chunk) => this.data.emit(chunk)),
      link.a.onClose((error) => {
        this.detach();
        this.closed.emit(error);
      }),
    ];
    await link.a.open();
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.link) throw unavailable(`${this.description}: not open`);
    await this.link.a.write(data);
  }

  async close(): Promise<void> {
    const link = this.link;
    this.detach();
    await link?.a.close();
  }

  private detach(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.link = undefined;
  }
}
