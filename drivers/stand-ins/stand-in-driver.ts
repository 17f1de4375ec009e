import type { DeviceStatus, DriverContext } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { type Ledger, openLedger } from './ledger.js';
import { type SimOptions, seededRandom } from './script.js';

/**
 * What the simulated drivers share: the seeded random source of their scripts, the ledger that
 * is their device's memory, and the open/close/status life of a device that is always there.
 * Each simulator adds `execute`, `reconcile` and the facts its status shows.
 */
export abstract class SimDriver {
  protected readonly random: () => number;
  protected readonly ledger: Ledger;
  private lastContact: number | undefined;
  private opened = false;

  constructor(
    protected readonly ctx: DriverContext,
    options: SimOptions,
    /** The status summary when open ("ready (simulated printer)" …) and before. */
    private readonly words: { ready: Message; notOpened: Message },
  ) {
    this.random = seededRandom(options.seed);
    this.ledger = openLedger(options.ledgerPath, ctx.store);
  }

  async open(): Promise<void> {
    this.opened = true;
    this.touched();
  }

  async close(): Promise<void> {
    this.opened = false;
  }

  status(): DeviceStatus {
    const status: DeviceStatus = {
      connected: this.opened,
      summary: this.opened ? this.words.ready : this.words.notOpened,
      warnings: [],
      facts: { simulated: true, ...this.facts() },
      // What the device did is for staff; that it is simulated, and its serial, are technical.
      staffFacts: this.staffFacts,
    };
    if (this.lastContact !== undefined) status.lastContact = this.lastContact;
    return status;
  }

  /** The device answered now. */
  protected touched(): void {
    this.lastContact = this.ctx.clock.now();
  }

  /** The device's own status facts, beside `simulated: true` (typed by its family's labels). */
  protected abstract facts(): DeviceStatus['facts'];

  /** The keys of `facts()` the page's card leads with. */
  protected abstract readonly staffFacts: readonly string[];
}
