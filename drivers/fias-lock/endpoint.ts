import { Backoff } from '../../src/backoff.js';
import type { Clock } from '../../src/clock.js';
import { AgentError, isAgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import { Mutex } from '../../src/mutex.js';
import { runPeriodically } from '../../src/periodic.js';
import { type AcceptedPeer, TcpListener } from '../../src/transport/tcp-listener.js';
import { LinkAdmission } from './admission.js';
import { type FiasLockOptions, listenAddress } from './config.js';
import { FiasLink } from './link.js';
import { fiasMessages } from './messages.js';

/**
 * Where the agent waits for one lock server: the listening port and the FIAS link over the
 * connection the lock server opened. One lock server serves every encoder it drives over one
 * link (the encoder is the `KC` field of each request), so the devices configured with the same
 * host and port share one endpoint in the process (`acquireEndpoint`), each holding a reference.
 *
 * - The port is bound on the first `listen()` and stays bound until the last device releases the
 *   endpoint. While another program holds the port, binding is retried in the background.
 * - Only the configured lock server's address may connect (`TcpListener`), and an established
 *   link is kept while it answers: who gets the link when that address connects again is
 *   `LinkAdmission`'s decision (issue 40 M1). A lost link is simply waited for again.
 * - Requests to one encoder take turns (`turn`): a key answer names only the workstation and the
 *   encoder, so two outstanding requests for the same pair could not be told apart (p.67).
 */

export interface EndpointContext {
  clock: Clock;
  log: Logger;
  timezone: string;
}

/** What the status page and `/metrics` say about the endpoint. */
export interface EndpointState {
  listening: boolean;
  /** The lock server is connected (the link may still be starting). */
  connected: boolean;
  alive: boolean;
  lockServerVersion?: string;
  /** Links that were Alive and ended. */
  linkDrops: number;
  refusedConnections: number;
  /** Links dropped for a newer connection because they no longer answered. */
  linkReplacements: number;
  /** Connections from the lock server's address refused while its link was kept. */
  secondConnectionsRefused: number;
  lastRefused?: string;
  /** The last reason the port could not be bound, while it cannot. */
  bindProblem?: AgentError;
  lastAliveAt?: number;
  /** When the lock server last sent anything (this link or the previous one). */
  lastHeard?: number;
}

/** The options two devices sharing an endpoint must agree on. */
function sharedSettings(o: FiasLockOptions): string {
  return JSON.stringify([
    o.lockServers,
    o.hotelId,
    o.linkTimeoutMs,
    o.aliveCheckMs,
    o.aliveTimeoutMs,
    o.linkEndWaitMs,
    o.keepAliveMs,
    o.answerTimeoutMs,
  ]);
}

const endpoints = new Map<string, FiasEndpoint>();

/**
 * The endpoint for `options`' host and port, created on first use; every call must be matched by
 * one `release()`. Throws CONFIG_INVALID when a device already uses that port with other link
 * settings.
 */
export function acquireEndpoint(options: FiasLockOptions, ctx: EndpointContext): FiasEndpoint {
  const key = listenAddress(options);
  let endpoint = endpoints.get(key);
  if (endpoint && endpoint.settings !== sharedSettings(options)) {
    throw new AgentError(
      'CONFIG_INVALID',
      `two fias-lock devices listen on ${key} with different lockServer or link timings; give them the same, or other ports`,
    );
  }
  if (!endpoint) {
    endpoint = new FiasEndpoint(options, ctx, () => endpoints.delete(key));
    endpoints.set(key, endpoint);
  }
  endpoint.refs++;
  return endpoint;
}

export class FiasEndpoint {
  refs = 0;
  readonly settings: string;
  readonly address: string;
  private readonly listener: TcpListener;
  private current: FiasLink | undefined;
  private readonly turns = new Map<string, Mutex>();
  private readonly lifetime = new AbortController();
  private rebinding = false;
  private released = false;
  private readonly counters = { linkDrops: 0, refused: 0 };
  private lastRefused: string | undefined;
  private bindProblem: AgentError | undefined;
  private lastAliveAt: number | undefined;
  private lastHeardBefore: number | undefined;
  private readonly aliveWaiters = new Set<() => void>();
  /** Who gets the link when the lock server's address connects (`admission.ts`). */
  private readonly admission: LinkAdmission;

  constructor(
    private readonly options: FiasLockOptions,
    private readonly ctx: EndpointContext,
    private readonly forget: () => void,
  ) {
    this.settings = sharedSettings(options);
    this.address = listenAddress(options);
    this.listener = new TcpListener({
      host: options.host,
      port: options.port,
      allow: options.lockServers,
      log: ctx.log,
      keepAliveMs: options.keepAliveMs,
    });
    this.admission = new LinkAdmission({
      clock: ctx.clock,
      log: ctx.log,
      aliveTimeoutMs: options.aliveTimeoutMs,
      lifetime: this.lifetime.signal,
      current: () => this.current,
      adopt: (peer) => this.adopt(peer),
    });
    this.listener.onPeer((peer) => this.admission.accept(peer));
    this.listener.onRefused((address) => {
      this.counters.refused++;
      this.lastRefused = address;
    });
  }

  /** The link, whatever its state, or undefined while no lock server is connected. */
  get link(): FiasLink | undefined {
    return this.current;
  }

  get state(): EndpointState {
    const link = this.current;
    const s: EndpointState = {
      listening: this.listener.listening,
      connected: link !== undefined,
      alive: link?.state === 'alive',
      linkDrops: this.counters.linkDrops,
      refusedConnections: this.counters.refused,
      linkReplacements: this.admission.replacements,
      secondConnectionsRefused: this.admission.refusals,
    };
    const version = link?.description?.version;
    if (version !== undefined) s.lockServerVersion = version;
    if (this.lastRefused !== undefined) s.lastRefused = this.lastRefused;
    if (this.bindProblem !== undefined) s.bindProblem = this.bindProblem;
    if (this.lastAliveAt !== undefined) s.lastAliveAt = this.lastAliveAt;
    const heard = link?.lastHeard ?? this.lastHeardBefore;
    if (heard !== undefined) s.lastHeard = heard;
    return s;
  }

  /**
   * Binds the port (once). Rejects DEVICE_UNAVAILABLE while another program holds it (binding is
   * then retried in the background) and CONFIG_INVALID when it can never work here.
   */
  async listen(): Promise<void> {
    if (this.listener.listening) return;
    try {
      await this.listener.listen();
      this.bindProblem = undefined;
    } catch (error) {
      throw this.noteBindProblem(error);
    }
  }

  /**
   * Resolves with the link once it is Alive; rejects DEVICE_UNAVAILABLE after `timeoutMs` without
   * one (saying whether the lock server never connected or never finished starting the link), and
   * ABORTED when `signal` fires first.
   */
  async waitAlive(signal: AbortSignal, timeoutMs: number): Promise<FiasLink> {
    const alive = () => (this.current?.state === 'alive' ? this.current : undefined);
    const now = alive();
    if (now) return now;
    if (signal.aborted) throw new AgentError('ABORTED', 'cancelled while waiting for the lock server');
    const timer = new AbortController();
    try {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          this.aliveWaiters.delete(done);
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.aliveWaiters.delete(done);
          reject(new AgentError('ABORTED', 'cancelled while waiting for the lock server'));
        };
        this.aliveWaiters.add(done);
        signal.addEventListener('abort', onAbort, { once: true });
        this.ctx.clock.sleep(timeoutMs, timer.signal).then(done, () => undefined);
      });
    } finally {
      timer.abort();
    }
    const link = alive();
    if (link) return link;
    throw this.unavailable();
  }

  /** The error of a key command that finds no Alive link: nothing was sent. */
  unavailable(): AgentError {
    if (this.bindProblem) return this.bindProblem;
    const starting = this.current !== undefined;
    return new AgentError(
      'DEVICE_UNAVAILABLE',
      starting
        ? `the lock server connected to ${this.address} but did not finish starting the FIAS link`
        : `no lock server is connected to ${this.address}`,
      {
        notes: starting
          ? fiasMessages.linkNotStarted()
          : fiasMessages.notConnected({ address: this.address }),
        details: { nothingSent: true },
      },
    );
  }

  /** Runs `use` when the requests queued before it for the same workstation and encoder are done. */
  turn<T>(key: string, use: () => Promise<T>): Promise<T> {
    let mutex = this.turns.get(key);
    if (!mutex) {
      mutex = new Mutex();
      this.turns.set(key, mutex);
    }
    return mutex.run(use);
  }

  /** One device lets go; the last one ends the link (LE) and closes the port. */
  async release(): Promise<void> {
    this.refs = Math.max(0, this.refs - 1);
    if (this.refs > 0 || this.released) return;
    this.released = true;
    this.forget();
    this.lifetime.abort();
    const link = this.current;
    this.current = undefined;
    await link?.end('the agent closed the device');
    await this.listener.close();
  }

  /** The link over `peer`'s connection is the lock server's from now on. */
  private adopt(peer: AcceptedPeer): void {
    const link = new FiasLink(peer.transport, `${peer.address}:${peer.port}`, {
      clock: this.ctx.clock,
      log: this.ctx.log,
      timezone: this.ctx.timezone,
      hotelId: this.options.hotelId,
      answerTimeoutMs: this.options.answerTimeoutMs,
      linkTimeoutMs: this.options.linkTimeoutMs,
      aliveCheckMs: this.options.aliveCheckMs,
      aliveTimeoutMs: this.options.aliveTimeoutMs,
      linkEndWaitMs: this.options.linkEndWaitMs,
    });
    this.current = link;
    let wasAlive = false;
    link.onAlive(() => {
      wasAlive = true;
      this.lastAliveAt = this.ctx.clock.now();
      for (const wake of [...this.aliveWaiters]) wake();
    });
    link.onEnd((reason) => {
      this.lastHeardBefore = link.lastHeard;
      if (this.current === link) this.current = undefined;
      if (wasAlive) {
        this.counters.linkDrops++;
        if (!this.released)
          this.ctx.log.warn('FIAS link lost; waiting for the lock server to connect again', { reason });
      }
    });
    link.start();
  }

  private noteBindProblem(error: unknown): AgentError {
    const e = isAgentError(error)
      ? error
      : new AgentError('DEVICE_UNAVAILABLE', String(error), { cause: error });
    const notes =
      e.code === 'CONFIG_INVALID'
        ? fiasMessages.cannotListenAt({ address: this.address })
        : fiasMessages.portInUse({ port: this.options.port });
    const problem = new AgentError(e.code, e.message, {
      notes,
      details: { ...e.details, nothingSent: true },
      cause: e,
    });
    this.bindProblem = problem;
    if (problem.retryable) this.rebindInBackground();
    return problem;
  }

  private rebindInBackground(): void {
    if (this.rebinding || this.released) return;
    this.rebinding = true;
    const delays = new Backoff({ minMs: this.options.rebindMinMs, maxMs: this.options.rebindMaxMs });
    const bound = new AbortController();
    void runPeriodically(
      async () => {
        await this.listener.listen();
        this.bindProblem = undefined;
        bound.abort();
      },
      {
        clock: this.ctx.clock,
        signal: AbortSignal.any([this.lifetime.signal, bound.signal]),
        intervalMs: () => delays.next(),
        firstRun: 'after-interval',
        onError: (error) =>
          this.ctx.log.debug('FIAS: the port is still taken', { at: this.address, error: String(error) }),
      },
    ).finally(() => {
      this.rebinding = false;
    });
  }
}
