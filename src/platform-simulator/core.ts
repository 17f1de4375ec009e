import type { Clock } from '../clock.js';
import type { CommandState } from '../connector/wire.js';
import type { Logger } from '../log.js';
import { Ledger } from './bills.js';
import { CommandStore, type HistoryEntry, isTerminal, rejection, type SimCommand } from './commands.js';
import type { DocumentRules } from './document.js';
import { CommandFactory, type CreateCommandOptions } from './factory.js';
import { FaultController } from './faults.js';
import { CommandGenerator } from './generator.js';
import { Metrics } from './metrics.js';
import { DEFAULT_TAX_CODES, type VatRate } from './money.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { ReceiptBook } from './receipts.js';
import { isFiscalKind, type RenderContext, renderCommand, renderFiscalCommand } from './render.js';
import { deriveRng, type Rng } from './rng.js';
import type { CommandKind, Scenario } from './scenario.js';
import { utc } from './time.js';
import { buildWorld, type World } from './world.js';

/** A command as the admin API and the in-process API show it. */
export interface CommandView {
  id: string;
  kind: CommandKind;
  state: CommandState;
  deviceId: string;
  deviceType: string;
  enterpriseId: string;
  createdUtc: string;
  updatedUtc: string;
  history: HistoryEntry[];
  malformed?: string;
  billId?: string;
  reservationId?: string;
  /** The wire renderings: `commands/*` item, and the `fiscalMachineCommands/getAll` item (fiscal only). */
  wire: { command: Record<string, unknown>; fiscal?: Record<string, unknown> };
}

export interface CommandFilter {
  state?: CommandState | readonly CommandState[];
  deviceId?: string;
  kind?: CommandKind;
}

export interface CoreOptions {
  scenario: Scenario;
  seed: number;
  clock: Clock;
  log: Logger;
  legacyFiscalInCommands: boolean;
  rateLimit: { requests: number; windowSeconds: number };
  /** How the interface document is applied (strict-document mode or single switches). */
  rules: DocumentRules;
}

export const STAFF_CANCEL_NOTES = 'Cancelled by staff at the front desk.';

/**
 * The simulated platform without its network face: world, bills, commands, receipts, faults,
 * counters, rate limit and generator, and the operations on them. Shared by the Connector API,
 * the admin API and the in-process API, so all three see one state.
 */
export class SimulatorCore {
  readonly world: World;
  readonly store = new CommandStore();
  readonly metrics = new Metrics();
  readonly faults: FaultController;
  /** Keyed by access token. */
  readonly limiter: SlidingWindowLimiter;
  readonly generator: CommandGenerator;
  ledger: Ledger;
  receipts: ReceiptBook;
  factory: CommandFactory;
  /** Streams for commands made by hand (admin, in-process) and by the API (`addKeyCutter`). */
  manualRng: Rng;
  apiRng: Rng;
  private scheduled = new AbortController();

  constructor(readonly options: CoreOptions) {
    const { scenario, seed, clock, log } = options;
    this.world = buildWorld(scenario, deriveRng(seed, 'world'), clock.now());
    this.faults = new FaultController(scenario.faults, deriveRng(seed, 'faults'));
    this.limiter = new SlidingWindowLimiter(
      options.rateLimit.requests,
      options.rateLimit.windowSeconds * 1000,
      clock,
    );
    this.ledger = this.newLedger();
    this.receipts = new ReceiptBook(scenario.receipts);
    this.factory = this.newFactory();
    this.manualRng = deriveRng(seed, 'manual');
    this.apiRng = deriveRng(seed, 'api');
    this.generator = new CommandGenerator(
      {
        settings: scenario.generator,
        factory: () => this.factory,
        faults: this.faults,
        metrics: this.metrics,
        clock,
        log,
      },
      deriveRng(seed, 'generator'),
    );
    this.store.subscribe((change) => {
      if (change.type === 'created') this.metrics.commandCreated(change.command.kind);
      else this.afterUpdate(change.command, change.entry);
    });
  }

  private newLedger(): Ledger {
    const codes = { ...DEFAULT_TAX_CODES } as Record<VatRate, string>;
    for (const [rate, code] of Object.entries(this.options.scenario.taxCodes)) {
      if (code) codes[Number(rate) as VatRate] = code;
    }
    return new Ledger(this.options.seed, codes);
  }

  private newFactory(): CommandFactory {
    const departments: Partial<Record<VatRate, number>> = {};
    for (const [rate, dept] of Object.entries(this.options.scenario.departments)) {
      if (dept !== undefined) departments[Number(rate) as VatRate] = dept;
    }
    return new CommandFactory({
      world: this.world,
      ledger: this.ledger,
      store: this.store,
      receipts: this.receipts,
      clock: this.options.clock,
      departments,
    });
  }

  get renderContext(): RenderContext {
    return { world: this.world, ledger: this.ledger, rules: this.options.rules };
  }

  /** Creates the scenario's backlog and starts the generator when the scenario says so. */
  begin(autostart: boolean): void {
    this.generator.createMany(this.options.scenario.generator.backlog);
    if (autostart && this.generator.autostart) this.generator.start();
  }

  private afterUpdate(command: SimCommand, entry: HistoryEntry): void {
    const previous = command.history[command.history.length - 2];
    if (entry.by === 'agent' && entry.state === 'Processing' && previous?.state !== 'Processing') {
      const delay = this.faults.cancelOnProcessing();
      if (delay !== undefined) {
        this.options.clock.sleep(delay, this.scheduled.signal).then(
          () => {
            if (isTerminal(command.state)) return;
            this.metrics.fault('cancel-on-processing');
            this.cancelAsStaff(command.id);
          },
          () => undefined,
        );
      }
    }
    const p = command.payload;
    if (
      entry.state === 'Processed' &&
      entry.notes &&
      (p.kind === 'fiscal-data' || p.kind === 'fiscal-payload')
    ) {
      const device = this.world.device(command.deviceId);
      const learned = this.receipts.learn(entry.notes, {
        at: entry.at,
        deviceId: command.deviceId,
        billId: p.billId,
        commandId: command.id,
        ...(device?.type === 'FiscalMachine' ? { fallbackSerial: device.serialNumber } : {}),
      });
      if (learned)
        this.options.log.debug('receipt learned', {
          commandId: command.id,
          z: learned.zNumber,
          doc: learned.documentNumber,
        });
    }
  }

  createCommand(
    kind: CommandKind,
    options: CreateCommandOptions = {},
    rng: Rng = this.manualRng,
  ): SimCommand {
    return this.factory.create(kind, rng, options);
  }

  /** `commands/update` from the agent. Rejects like the store (400) and counts the outcome. */
  agentUpdate(id: string, change: { state: CommandState; progress?: number; notes?: string }): SimCommand {
    try {
      const command = this.store.update(id, change, 'agent', this.options.clock.now(), {
        forwardOnly: this.options.rules.updates === 'forward',
      });
      this.metrics.update(true);
      return command;
    } catch (e) {
      this.metrics.update(false);
      throw e;
    }
  }

  /** Staff cancels a command in the platform's UI. Rejects (404) for an unknown id, (409) when terminal. */
  cancelAsStaff(id: string, notes = STAFF_CANCEL_NOTES): SimCommand {
    const command = this.store.get(id);
    if (!command) throw rejection(404, `No command ${id}`);
    if (isTerminal(command.state)) throw rejection(409, `Command ${id} is already ${command.state}`);
    const out = this.store.update(id, { state: 'Cancelled', notes }, 'staff', this.options.clock.now());
    this.metrics.cancelledByStaff();
    return out;
  }

  view(command: SimCommand): CommandView {
    const device = this.world.device(command.deviceId);
    const ctx = this.renderContext;
    const view: CommandView = {
      id: command.id,
      kind: command.kind,
      state: command.state,
      deviceId: command.deviceId,
      deviceType: device?.type ?? 'unknown',
      enterpriseId: command.enterpriseId,
      createdUtc: utc(command.createdAt),
      updatedUtc: utc(command.updatedAt),
      history: command.history.map((h) => ({ ...h })),
      // Copies: renderings share nested objects with the render cache.
      wire: { command: structuredClone(renderCommand(command, ctx)) },
    };
    if (isFiscalKind(command)) view.wire.fiscal = structuredClone(renderFiscalCommand(command, ctx));
    if (command.malformed) view.malformed = command.malformed;
    const p = command.payload;
    if ('billId' in p && p.kind !== 'payment-terminal') view.billId = p.billId;
    if (p.kind === 'keys') view.reservationId = p.reservationId;
    return view;
  }

  commands(filter: CommandFilter = {}): SimCommand[] {
    const states = filter.state === undefined ? undefined : ([] as CommandState[]).concat(filter.state);
    return this.store
      .newestFirst()
      .filter(
        (c) =>
          (!states || states.includes(c.state)) &&
          (!filter.deviceId || c.deviceId === filter.deviceId) &&
          (!filter.kind || c.kind === filter.kind),
      );
  }

  /**
   * Back to the state right after start: no commands, bills, learned receipts, counters, request
   * log or rate windows; the scenario's faults; fresh random streams; the backlog again; the
   * generator running again only if the scenario starts it.
   */
  reset(autostart: boolean): void {
    const { seed } = this.options;
    this.scheduled.abort();
    this.scheduled = new AbortController();
    this.generator.reseed(deriveRng(seed, 'generator'));
    this.store.clear();
    this.metrics.reset();
    this.limiter.reset();
    this.faults.reset(deriveRng(seed, 'faults'));
    this.ledger = this.newLedger();
    this.receipts = new ReceiptBook(this.options.scenario.receipts);
    this.factory = this.newFactory();
    this.manualRng = deriveRng(seed, 'manual');
    this.apiRng = deriveRng(seed, 'api');
    this.begin(autostart);
  }

  /** Stops the generator and every scheduled staff action. Idempotent. */
  close(): void {
    this.generator.stop();
    this.scheduled.abort();
  }
}
