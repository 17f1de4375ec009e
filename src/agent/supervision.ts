import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Message } from '../messages/message.js';
import { EscapedFaults, type LoopLag, loopLag } from '../supervision/index.js';
import type { AgentPart } from './part.js';

/**
 * The agent's own liveness, the first part to start and the last to stop: when it started, the
 * process's event-loop lag probe (`src/supervision/loop-lag.ts`) and the guard that turns errors
 * escaping every handler into logged faults (`src/supervision/escaped-faults.ts`). Its stop is
 * the agent's last log line.
 */
export class Supervision implements AgentPart {
  readonly name = 'supervision';
  readonly guard: EscapedFaults;
  private readonly lag: LoopLag = loopLag();
  private startedAtMs: number | undefined;

  constructor(private readonly deps: { clock: Clock; log: Logger }) {
    this.guard = new EscapedFaults({ clock: deps.clock, log: deps.log.child({ component: 'guard' }) });
  }

  /** When the agent started (now, before it has). */
  get startedAt(): number {
    return this.startedAtMs ?? this.deps.clock.now();
  }

  async start(): Promise<void> {
    this.startedAtMs = this.deps.clock.now();
  }

  async stop(): Promise<void> {
    this.deps.log.info('agent stopped');
  }

  /** The event loop's current delay, in ms. */
  loopLagMs(): number {
    return this.lag.currentMs();
  }

  /** `/healthz`'s reasons about escaped errors, while the last one is recent. */
  faultReasons(): Message[] {
    return this.guard.reasons();
  }

  /** The event loop moves and errors do not keep escaping (the watchdog's half of `Agent.alive`). */
  alive(): boolean {
    return this.lag.currentMs() < 5000 && this.guard.alive();
  }
}

/**
 * A component the guard may restart (stop, then start again) when an escaped error's stack names
 * its files; stateless, so a restart loses nothing (the WebSocket: a new connection catches up).
 */
export interface RestartableLink {
  name: string;
  /** True when a stack frame's file belongs to this component. */
  owns(file: string): boolean;
  stop(): Promise<void>;
  start(): void;
}

/** A part that has a component the guard may restart, once it started. */
export interface Restartable {
  restartable(): RestartableLink | undefined;
}

/**
 * What the guard may restart while the agent runs (today the WebSocket listener), registered
 * once the parts that own it started. It is the last part, so the first thing a stop ends is
 * restarting: a component the engine's shutdown stopped is never started again by a late fault,
 * not even by a restart that was under way.
 */
export class GuardedRestarts implements AgentPart {
  readonly name = 'restarts';
  private readonly unregister: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly guard: EscapedFaults,
    private readonly owners: readonly Restartable[],
  ) {}

  async start(): Promise<void> {
    for (const owner of this.owners) {
      const link = owner.restartable();
      if (!link) continue;
      this.unregister.push(
        this.guard.register({
          name: link.name,
          owns: (file) => link.owns(file),
          restart: async () => {
            if (this.stopped) return;
            await link.stop();
            if (!this.stopped) link.start();
          },
        }),
      );
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const off of this.unregister.splice(0)) off();
  }
}
