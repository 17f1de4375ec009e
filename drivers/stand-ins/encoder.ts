import { z } from 'zod';
import type { KeyJobData } from '../../src/connector/model.js';
import { jobDataOf } from '../../src/drivers-api/job-data.js';
import { deviceMessages, keysForRoomsWords, keysUnreadableWords } from '../../src/drivers-api/messages.js';
import type {
  Driver,
  DriverContext,
  DriverFactory,
  ExecuteContext,
  FactsOf,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { type simEncoderLabels, simMessages } from './messages.js';
import { SimOptionsSchema, scriptFor, simulatedWork } from './script.js';
import { SimDriver } from './stand-in-driver.js';

/**
 * A simulated key-card encoder: writes `KeyCount` cards one by one (a ledger line per card is the
 * card leaving the encoder), reports a milestone after each, stops between cards when cancelled,
 * and after a crash reports how many cards were confirmed — cutting the rest only when
 * `cutRemainingAfterCrash` is set, like the real encoder driver.
 */
export const SimEncoderOptionsSchema = SimOptionsSchema.extend({
  cutRemainingAfterCrash: z.boolean().default(false),
});
export type SimEncoderOptions = z.infer<typeof SimEncoderOptionsSchema>;

export const simEncoderFactory: DriverFactory<SimEncoderOptions> = {
  kind: 'sim-encoder',
  deviceType: 'KeyCutter',
  configSchema: SimEncoderOptionsSchema,
  create: (options, ctx) => new SimEncoderDriver(options, ctx),
};

function keyData(job: Job): KeyJobData {
  return jobDataOf(job, 'keys');
}

/** What the driver checkpoints around each card: `{writing: k}` before, `{confirmed: k}` after. */
const CheckpointSchema = z.union([
  z.object({ writing: z.number().int().min(1) }).strict(),
  z.object({ confirmed: z.number().int().min(1) }).strict(),
]);

/** Whether `value` is a checkpoint this driver wrote for a job of `total` cards. */
function readable(value: unknown, total: number): boolean {
  const parsed = CheckpointSchema.safeParse(value);
  if (!parsed.success) return false;
  const card = 'writing' in parsed.data ? parsed.data.writing : parsed.data.confirmed;
  return card <= total;
}

class SimEncoderDriver extends SimDriver implements Driver {
  constructor(
    private readonly options: SimEncoderOptions,
    ctx: DriverContext,
  ) {
    super(ctx, options, { ready: simMessages.encoderReady(), notOpened: simMessages.encoderNotOpened() });
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    const keys = keyData(job);
    if (keys.lockIds.length === 0) {
      throw new AgentError('ROOM_UNKNOWN', 'The key command names no room', {
        notes: deviceMessages.noRoomAssigned(),
      });
    }
    const script = scriptFor(keys.settings, this.options, this.random);
    const alreadyCut = this.cardsCut(job.commandId);
    const perCard = script.durationMs / keys.keyCount;
    for (let card = alreadyCut + 1; card <= keys.keyCount; card++) {
      if (ctx.signal.aborted) {
        throw new AgentError('ABORTED', `Cancelled after ${card - 1} of ${keys.keyCount} keys`, {
          details: { cardsCut: card - 1 },
        });
      }
      await simulatedWork(this.ctx.clock, perCard, ctx.signal);
      const failsHere = script.outcome !== 'ok' && (script.failAtCard ?? 1) === card;
      if (failsHere) {
        throw new AgentError(
          script.outcome as AgentError['code'],
          `Simulated encoder failure at card ${card}`,
          {
            details: { cardsCut: card - 1 },
          },
        );
      }
      await ctx.checkpoint({ writing: card });
      this.ledger.append({
        commandId: job.commandId,
        action: 'card',
        facts: { card, rooms: keys.lockIds },
        at: this.ctx.clock.now(),
      });
      await ctx.checkpoint({ confirmed: card });
      ctx.progress(card / keys.keyCount, { milestone: true });
    }
    this.touched();
    return this.result(keys);
  }

  async reconcile(job: Job): Promise<Reconciliation> {
    const keys = keyData(job);
    if (job.checkpoint !== undefined && !readable(job.checkpoint, keys.keyCount)) {
      // It exists, so a card may have been written; how many, this driver cannot read.
      return { outcome: 'unknown', reason: keysUnreadableWords(keys.keyCount, keys.lockIds) };
    }
    const cut = this.cardsCut(job.commandId);
    if (cut >= keys.keyCount) return { outcome: 'done', result: this.result(keys) };
    if (cut === 0 || this.options.cutRemainingAfterCrash) return { outcome: 'not-done' };
    return {
      outcome: 'failed',
      error: new AgentError('STATE_UNKNOWN', `${cut} of ${keys.keyCount} keys were cut before a restart`, {
        notes: simMessages.partlyCut({ cut, count: keys.keyCount }),
        details: { cardsCut: cut },
      }),
    };
  }

  protected readonly staffFacts = ['cardsCut'];

  protected facts(): FactsOf<typeof simEncoderLabels> {
    return { cardsCut: this.ledger.count('card') };
  }

  private cardsCut(commandId: string): number {
    return this.ledger.entriesFor(commandId).filter((e) => e.action === 'card').length;
  }

  private result(keys: KeyJobData): JobResult {
    return {
      notes: keysForRoomsWords(keys.keyCount, keys.lockIds),
      details: { cards: keys.keyCount, rooms: keys.lockIds },
    };
  }
}
