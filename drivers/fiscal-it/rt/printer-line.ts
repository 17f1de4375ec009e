import type { Clock } from '../../../src/clock.js';
import { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import { Mutex } from '../../../src/mutex.js';
import { runPeriodically } from '../../../src/periodic.js';
import type { HttpClient } from '../../../src/transport/http.js';

/**
 * What an RT driver (Epson fpmate, Custom XML) keeps of the line to its printer, the same for both
 * families:
 * - the one mutex every exchange runs under: the printer takes one request at a time (Custom
 *   directIO manual rev 6.00 p.20; fiskaltrust `scu-it` serialises every request to a printer),
 *   and a status poll, the scheduled closure and a staff action never interleave with a receipt;
 * - the printer's address (configured, or learnt from a command's `apiUrl`), the HTTP client and
 *   the family's link to that address, made on first need and again when the address changes;
 * - the background work (status polls, the closure schedule), started once and stopped by
 *   `close()`.
 * Each family brings its link, its address check and its words.
 */
export interface PrinterLineOptions<L> {
  /** The configured address; undefined when it comes with the commands (`url: fromPlatform`). */
  address: string | undefined;
  /** Throws (COMMAND_INVALID, with Notes) when the family cannot talk to `address`. */
  checkAddress(address: string): void;
  /** The HTTP client, opened on the first link. */
  http(): HttpClient;
  /** The family's link to `address`. */
  link(address: string, http: HttpClient): L;
  /** Notes of the refusal while the address is not known yet. */
  addressUnknown(): Message;
}

/** The background work `PrinterLine.startBackground` runs until `close()`. */
export interface PrinterBackground {
  clock: Clock;
  /** The daily closure's schedule, when it is on. */
  scheduler: { run(signal: AbortSignal): Promise<void> } | undefined;
  /** Between two status polls while the printer answers; 0: no polls. */
  intervalMs: number;
  /** Between two status polls while it does not. */
  retryMs: number;
  connected(): boolean;
  /**
   * One status poll; it runs under the mutex. A printer that does not answer is on the status
   * board already (the poll records it), so a failure waits for the next poll.
   */
  poll(signal: AbortSignal): Promise<unknown>;
}

export class PrinterLine<L extends { readonly address: string }> {
  readonly mutex = new Mutex();
  private known: string | undefined;
  private http: HttpClient | undefined;
  private link: L | undefined;
  private background: AbortController | undefined;

  constructor(private readonly options: PrinterLineOptions<L>) {
    this.known = options.address;
  }

  /** The printer's address: configured, or the last one a command gave; undefined before that. */
  get address(): string | undefined {
    return this.known;
  }

  /** The link to `address` (checked first), which becomes the printer's address. */
  linkFor(address: string): L {
    this.options.checkAddress(address);
    if (!this.link || this.link.address !== address) {
      this.http ??= this.options.http();
      this.link = this.options.link(address, this.http);
      this.known = address;
    }
    return this.link;
  }

  /** The link to the known printer; throws DEVICE_UNAVAILABLE while its address is not known yet. */
  currentLink(): L {
    if (!this.known) {
      throw new AgentError('DEVICE_UNAVAILABLE', 'The printer’s address is not known yet', {
        notes: this.options.addressUnknown(),
      });
    }
    return this.linkFor(this.known);
  }

  /** The link to the address `address()` gives (a job's); undefined when it throws or is refused. */
  linkOrNone(address: () => string): L | undefined {
    try {
      return this.linkFor(address());
    } catch {
      return undefined;
    }
  }

  /** Starts the background work; does nothing when it runs already. */
  startBackground(work: PrinterBackground): void {
    if (this.background) return;
    const controller = new AbortController();
    this.background = controller;
    if (work.scheduler) void work.scheduler.run(controller.signal);
    if (work.intervalMs === 0) return;
    void runPeriodically(() => this.mutex.run(() => work.poll(controller.signal)), {
      clock: work.clock,
      signal: controller.signal,
      intervalMs: () => (work.connected() ? work.intervalMs : work.retryMs),
      firstRun: 'after-interval',
      onError: () => undefined,
    });
  }

  /**
   * Idempotent: stops the background work, waits for the exchange in progress, releases the
   * connections. The address stays known; a later link opens a new client.
   */
  async close(): Promise<void> {
    this.background?.abort();
    this.background = undefined;
    await this.mutex.run(async () => undefined);
    const http = this.http;
    this.http = undefined;
    this.link = undefined;
    http?.close();
  }
}
