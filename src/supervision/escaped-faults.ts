import type { Clock } from '../clock.js';
import { toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Message } from '../messages/message.js';
import { sourceMappedStack } from '../stack-map.js';
import { supervisionMessages } from './messages.js';

/**
 * The process-level guard's memory: errors that escaped every handler (`uncaughtException`,
 * `unhandledRejection`, fed by `app/main.ts`) become logged faults instead of the end of the
 * daemon or a silent stall.
 *
 * - Each one is one log line (`code`, `message` cut to one line, the first frame of our own code,
 *   never a stack trace); the logger redacts the tokens.
 * - When a frame of the stack belongs to a registered component (the WebSocket listener …), that
 *   component is restarted. Otherwise nothing can be restarted safely from the outside: a running
 *   fiscal job must not be interrupted.
 * - `/healthz` is 503 with the reason for `unhealthyForMs` after the last one (default 5 min).
 * - From `maxFaults` within `windowMs` (default 3 in 10 min) `alive()` is false: the systemd
 *   watchdog gets no more pings and restarts the agent, which then recovers from its journal.
 */

export type EscapeOrigin = 'uncaughtException' | 'unhandledRejection';

export interface EscapedFault {
  at: number;
  origin: EscapeOrigin;
  code: string;
  message: string;
  /** `src/connector/websocket.ts:210`: the first frame of the agent's own code, if any. */
  where?: string;
  /** The restarted component, if the stack named one. */
  component?: string;
}

export interface RestartableComponent {
  name: string;
  /** True when a stack frame's file belongs to this component. */
  owns(file: string): boolean;
  restart(): Promise<void>;
}

export interface EscapedFaultsOptions {
  clock: Clock;
  log: Logger;
  unhealthyForMs?: number;
  maxFaults?: number;
  windowMs?: number;
}

const MESSAGE_LIMIT = 300;
const OWN_CODE = /[\\/]((?:src|drivers)[\\/][^:]+):(\d+)/;

/**
 * The files named by a stack trace's frames, innermost first (node's `at … (file:line:col)`); a
 * frame of the bundled agent names its original source (src/stack-map.ts).
 */
export function stackFiles(error: unknown): Array<{ file: string; line: number }> {
  const stack =
    error instanceof Error && typeof error.stack === 'string' ? sourceMappedStack(error.stack) : '';
  const out: Array<{ file: string; line: number }> = [];
  for (const raw of stack.split('\n').slice(1, 40)) {
    const text = raw.trim();
    if (!text.startsWith('at ')) continue;
    const location = /\(([^()]+):(\d+):\d+\)$/.exec(text) ?? /^at (\S+):(\d+):\d+$/.exec(text);
    if (location?.[1]) out.push({ file: location[1].replace(/^file:\/\//, ''), line: Number(location[2]) });
  }
  return out;
}

export class EscapedFaults {
  private readonly unhealthyForMs: number;
  private readonly maxFaults: number;
  private readonly windowMs: number;
  private readonly components: RestartableComponent[] = [];
  private readonly restarting = new Set<string>();
  private faults: EscapedFault[] = [];
  private total = 0;

  constructor(private readonly options: EscapedFaultsOptions) {
    this.unhealthyForMs = options.unhealthyForMs ?? 5 * 60_000;
    this.maxFaults = options.maxFaults ?? 3;
    this.windowMs = options.windowMs ?? 10 * 60_000;
  }

  /** A component the guard may restart when an escaped error's stack names its files. */
  register(component: RestartableComponent): () => void {
    this.components.push(component);
    return () => {
      const index = this.components.indexOf(component);
      if (index >= 0) this.components.splice(index, 1);
    };
  }

  /** Records, logs and (when it can tell whose it is) restarts. Never throws. */
  report(error: unknown, origin: EscapeOrigin): EscapedFault {
    const { clock, log } = this.options;
    const agentError = toAgentError(error);
    const files = stackFiles(error);
    const own = files
      .map((f) => ({ match: OWN_CODE.exec(`${f.file}:${f.line}`), ...f }))
      .find((f) => f.match);
    const component = this.components.find((c) => files.some((f) => c.owns(f.file)));
    const fault: EscapedFault = {
      at: clock.now(),
      origin,
      code: agentError.code,
      message: oneLine(agentError.message),
      ...(own?.match ? { where: `${own.match[1]?.replaceAll('\\', '/')}:${own.match[2]}` } : {}),
      ...(component ? { component: component.name } : {}),
    };
    this.total++;
    this.faults.push(fault);
    this.prune();
    log.error('an error escaped every handler; the agent goes on', {
      origin,
      code: fault.code,
      error: fault.message,
      where: fault.where,
      component: fault.component,
    });
    if (component) this.restart(component);
    if (!this.alive()) {
      log.error('errors keep escaping: the agent reports itself dead so that systemd restarts it', {
        faults: this.inWindow(),
        windowMs: this.windowMs,
      });
    }
    return fault;
  }

  /** Faults since the start. */
  get count(): number {
    return this.total;
  }

  /** False once `maxFaults` escaped within `windowMs`: feeds the watchdog. */
  alive(): boolean {
    return this.inWindow() < this.maxFaults;
  }

  /** The `/healthz` reasons: one sentence while the last fault is recent, none otherwise. */
  reasons(): Message[] {
    this.prune();
    const last = this.faults.at(-1);
    const now = this.options.clock.now();
    if (!last || now - last.at > this.unhealthyForMs) return [];
    const restarted = last.component ? `; ${last.component} restarted` : '';
    // The fault itself stays as the log has it (English, for IT): code, message, where.
    const fault = `${last.code}: ${last.message}${last.where ? ` at ${last.where}` : ''}${restarted}`;
    return [
      supervisionMessages.healthEscaped({
        ago: { ms: now - last.at },
        fault,
        count: this.inWindow(),
        window: { ms: this.windowMs },
      }),
    ];
  }

  private inWindow(): number {
    this.prune();
    const since = this.options.clock.now() - this.windowMs;
    return this.faults.filter((f) => f.at > since).length;
  }

  private prune(): void {
    const since = this.options.clock.now() - Math.max(this.windowMs, this.unhealthyForMs);
    this.faults = this.faults.filter((f) => f.at > since);
  }

  private restart(component: RestartableComponent): void {
    if (this.restarting.has(component.name)) return;
    this.restarting.add(component.name);
    const { log } = this.options;
    let restarting: Promise<void>;
    try {
      restarting = component.restart();
    } catch (error) {
      restarting = Promise.reject(error);
    }
    restarting
      .then(
        () => log.warn('component restarted after an escaped error', { component: component.name }),
        (error: unknown) =>
          log.error('component could not be restarted', {
            component: component.name,
            error: oneLine(toAgentError(error).message),
          }),
      )
      .finally(() => this.restarting.delete(component.name));
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_LIMIT ? `${flat.slice(0, MESSAGE_LIMIT)}…` : flat;
}
