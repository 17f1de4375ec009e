import type { Clock } from '../../src/clock.js';
import type { LogFields, Logger } from '../../src/log.js';

/**
 * A warning that something on the network can make repeat as fast as it likes (a connection
 * from the lock server's address refused while the lock server is linked): the first is logged at
 * once, the next ones within a minute are only counted, and one line a minute at most says how
 * many there were — so the journal's rate limit never drops the agent's other lines for it
 * (issue 40 M5 measured 731 refused connections a second, a line each). The total is for the
 * status facts.
 *
 * A stop-gap until the logger offers this for every repeated warning; `close()` ends the
 * pending summary (its count is logged at once).
 */
export class RepeatedWarning {
  private total = 0;
  private unsaid = 0;
  private lastLineAt: number | undefined;
  private lastFields: LogFields = {};
  private summary: AbortController | undefined;

  constructor(
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly message: string,
    private readonly everyMs = 60_000,
  ) {}

  /** How many times it happened. */
  get count(): number {
    return this.total;
  }

  /** It happened again (`fields` describe this time; the summary carries the latest). */
  note(fields: LogFields): void {
    this.total++;
    this.lastFields = fields;
    const now = this.clock.now();
    if (this.lastLineAt === undefined || now - this.lastLineAt >= this.everyMs) {
      this.say(now);
      return;
    }
    this.unsaid++;
    if (!this.summary) void this.summarise(this.lastLineAt + this.everyMs - now);
  }

  close(): void {
    this.summary?.abort();
    if (this.unsaid > 0) this.say(this.clock.now());
  }

  private async summarise(afterMs: number): Promise<void> {
    const summary = new AbortController();
    this.summary = summary;
    try {
      await this.clock.sleep(afterMs, summary.signal);
    } catch {
      return;
    } finally {
      if (this.summary === summary) this.summary = undefined;
    }
    if (this.unsaid > 0) this.say(this.clock.now());
  }

  private say(now: number): void {
    const repeated = this.unsaid;
    this.unsaid = 0;
    this.lastLineAt = now;
    this.log.warn(this.message, repeated > 0 ? { ...this.lastFields, repeated } : this.lastFields);
  }
}
