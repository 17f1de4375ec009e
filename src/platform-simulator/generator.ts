import type { Clock } from '../clock.js';
import { isAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import { linkSignals } from '../signals.js';
import type { SimCommand } from './commands.js';
import type { CommandFactory, CreateCommandOptions } from './factory.js';
import type { FaultController } from './faults.js';
import { applicableMalformed } from './malformed.js';
import type { Metrics } from './metrics.js';
import type { Rng } from './rng.js';
import type { CommandKind, GeneratorSettings } from './scenario.js';

const MIX_KINDS: Record<keyof GeneratorSettings['mix'], CommandKind> = {
  fiscalData: 'fiscal-data',
  fiscalRefund: 'fiscal-refund',
  fiscalPayload: 'fiscal-payload',
  keys: 'keys',
  printer: 'printer',
  paymentTerminal: 'payment-terminal',
};

export interface GeneratorDeps {
  settings: GeneratorSettings;
  /** The current factory (a reset replaces it). */
  factory: () => CommandFactory;
  faults: FaultController;
  metrics: Metrics;
  clock: Clock;
  log: Logger;
}

/**
 * Creates commands on its own: a steady `rate` per second, `bursts` at given offsets from start,
 * and a `backlog` on demand. Kinds follow the `mix` weights among kinds that have a device; a
 * refund with no known receipt yet becomes a sale. Every choice draws from the generator's own
 * stream, so with the same seed and the same clock advances the same commands appear.
 * `start()` and `stop()` are idempotent.
 */
export class CommandGenerator {
  private abort: AbortController | undefined;

  constructor(
    private readonly deps: GeneratorDeps,
    private rng: Rng,
  ) {}

  get running(): boolean {
    return this.abort !== undefined;
  }

  /** True when the scenario asks the generator to run from the start. */
  get autostart(): boolean {
    const s = this.deps.settings;
    return s.autostart ?? (s.rate > 0 || s.bursts.length > 0);
  }

  /** A fresh random stream (after a reset); stops the generator. */
  reseed(rng: Rng): void {
    this.stop();
    this.rng = rng;
  }

  private chooseKind(): CommandKind | undefined {
    const { settings } = this.deps;
    const factory = this.deps.factory();
    const weights: Partial<Record<CommandKind, number>> = {};
    for (const [key, kind] of Object.entries(MIX_KINDS) as [keyof typeof MIX_KINDS, CommandKind][]) {
      if (factory.devicesFor(kind, settings.devices).length > 0) weights[kind] = settings.mix[key];
    }
    return this.rng.weighted(weights);
  }

  /** Creates one command now; undefined when no kind of the mix has a device. */
  createOne(): SimCommand | undefined {
    let kind = this.chooseKind();
    if (!kind) return undefined;
    const options: CreateCommandOptions = {};
    const malformed = this.deps.faults.get().malformed;
    if (this.rng.chance(malformed.rate)) {
      const usable = malformed.kinds.filter((k) => applicableMalformed(kind as CommandKind).includes(k));
      if (usable.length > 0) options.malformed = this.rng.pick(usable);
    }
    try {
      return this.create(kind, options);
    } catch (e) {
      if (kind !== 'fiscal-refund' || !isAgentError(e)) throw e;
      kind = 'fiscal-data';
      return this.create(kind, options);
    }
  }

  private create(kind: CommandKind, options: CreateCommandOptions): SimCommand {
    const command = this.deps.factory().create(kind, this.rng, options, this.deps.settings.devices);
    if (command.malformed) this.deps.metrics.fault('malformed');
    return command;
  }

  /** Creates `count` commands at once (a backlog or a burst). */
  createMany(count: number): SimCommand[] {
    const out: SimCommand[] = [];
    for (let i = 0; i < count; i++) {
      const command = this.createOne();
      if (!command) break;
      out.push(command);
    }
    return out;
  }

  /** A timed creation: a refused one (say, keys without reservations) is logged, never fatal. */
  private tick(count: number): void {
    try {
      this.createMany(count);
    } catch (e) {
      if (!isAgentError(e)) throw e;
      this.deps.log.warn('command generator skipped a command', { error: e.message });
    }
  }

  start(): void {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    const { settings, clock, log } = this.deps;
    const startedAt = clock.now();
    /** Creates `count` commands at `firstAt`, then every `periodMs` (once without it), until stopped. */
    const every = (firstAt: number, periodMs: number | undefined, count: number) => {
      const own = new AbortController();
      const { signal, unlink } = linkSignals(abort.signal, own.signal);
      let next = firstAt;
      void runPeriodically(
        () => {
          this.tick(count);
          if (periodMs === undefined) own.abort();
          else next += periodMs;
        },
        {
          clock,
          signal,
          intervalMs: () => Math.max(0, next - clock.now()),
          firstRun: 'after-interval',
          onError: (e) => {
            own.abort();
            log.error('command generator stopped', { error: e instanceof Error ? e.message : String(e) });
          },
        },
      ).finally(unlink);
    };
    if (settings.rate > 0) every(startedAt + 1000 / settings.rate, 1000 / settings.rate, 1);
    for (const burst of settings.bursts) {
      every(
        startedAt + burst.atSeconds * 1000,
        burst.everySeconds === undefined ? undefined : burst.everySeconds * 1000,
        burst.count,
      );
    }
    log.info('command generator started', { rate: settings.rate, bursts: settings.bursts.length });
  }

  stop(): void {
    if (!this.abort) return;
    this.abort.abort();
    this.abort = undefined;
    this.deps.log.info('command generator stopped');
  }
}
