import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Clock } from '../clock.js';
import { type Journal, openJournal } from '../commands/index.js';
import { AgentError, toAgentError } from '../errors.js';
import { errorFields, type Logger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import type { AgentPart } from './part.js';

/** How often the agent writes its heartbeat into the journal. */
const HEARTBEAT_MS = 10_000;

/** Whether the journal took the last heartbeat, and why not when it did not. */
export interface JournalHealth {
  ok: boolean;
  error?: string;
}

/**
 * The journal file (`journal.path`, its folder made when missing), and a heartbeat written into it
 * every 10 s: whether the last one was taken is the journal's half of the agent's liveness (the
 * watchdog) and a `/healthz` reason. The engine closes the journal when it stops; this part
 * closes it only when the engine never got it.
 */
export class JournalFile implements AgentPart {
  readonly name = 'journal';
  private opened: Journal | undefined;
  private probe: JournalHealth = { ok: true };
  private readonly heartbeat = new AbortController();

  constructor(
    private readonly path: string,
    private readonly deps: { clock: Clock; log: Logger },
  ) {}

  /** The open journal, once started. */
  get journal(): Journal {
    if (!this.opened) throw new AgentError('INTERNAL', 'The journal has not been opened');
    return this.opened;
  }

  health(): JournalHealth {
    return this.probe;
  }

  async start(): Promise<void> {
    if (this.path !== ':memory:') mkdirSync(dirname(resolve(this.path)), { recursive: true });
    const journal = openJournal(this.path);
    this.opened = journal;
    const { clock } = this.deps;
    void runPeriodically(
      () => {
        if (journal.closed) return;
        journal.deviceStore('__agent__').set('heartbeat', clock.now());
        this.probe = { ok: true };
      },
      {
        clock,
        signal: this.heartbeat.signal,
        intervalMs: HEARTBEAT_MS,
        firstRun: 'after-interval',
        onError: (error) => {
          this.probe = { ok: false, error: toAgentError(error).message };
        },
      },
    );
  }

  async stop(): Promise<void> {
    this.heartbeat.abort();
    if (!this.opened || this.opened.closed) return;
    try {
      this.opened.close();
    } catch (error) {
      this.deps.log.error('journal did not close cleanly', errorFields(error));
    }
  }
}
