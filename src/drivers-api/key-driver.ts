import type { KeyJobData } from '../connector/model.js';
import type { AgentError } from '../errors.js';
import {
  type CardCounts,
  cutKeyCards,
  interruptedKeyJob,
  type KeyCardProtocol,
  type KeyCheckpointRead,
  type KeyJobWords,
  keyJobData,
  keyJobResult,
  reconcileKeyJob,
} from './key-jobs.js';
import { type KeyProtocol, KeyProtocolCheck } from './key-protocol.js';
import type { DriverContext, ExecuteContext, Job, JobResult, Reconciliation } from './types.js';

/** What a family's plan of one key job holds for the shared card loop. */
export interface KeyJobPlan {
  total: number;
  /** The platform's room numbers, for Notes. */
  rooms: readonly string[];
}

/** One job's cards as a family frames them. */
export interface KeyCards<Answer> {
  protocol: KeyCardProtocol<Answer>;
  /** The encoder the result names. */
  encoder: string | undefined;
  /** What the device told about the cards, for the result's details (serial numbers, answers). */
  told(): Readonly<Record<string, string[]>>;
}

/** A key family's constants for `KeyCardDriver`. */
export interface KeyFamily {
  /** The protocol the command's `KeyCutterData.Type` must not contradict (`key-protocol.ts`). */
  protocol: KeyProtocol;
  words: KeyJobWords;
  /** The options' busy retries (`cutKeyCards`). */
  busy: { busyRetries: number; busyBackoffMs: number };
  /** The options' `encoderId`: the encoder a reconciled job's result names. */
  encoderId: string | undefined;
}

/**
 * `execute` and `reconcile` as every key-encoder family has them (the PMS-protocol encoders, the
 * FIAS lock servers), around the one card loop of `key-jobs.ts`: the job's key data and its
 * protocol checked, the family's plan and stored checkpoint read, every card cut through the
 * family's framing (`cutKeyCards`: checkpoints, busy retries, at most once), the result; after a
 * restart, what the stored checkpoint alone says (`reconcileKeyJob`), a job a crash interrupted
 * ending in Error unless the family cuts the rest. A family supplies its plan, checkpoint,
 * framing and sentences, and its own `open`, `status` and `close`.
 */
export abstract class KeyCardDriver<Answer, Plan extends KeyJobPlan, Checkpoint extends CardCounts> {
  /** The card being cut, for the status page; undefined between jobs. */
  protected active: { card: number; total: number } | undefined;
  private readonly protocolCheck: KeyProtocolCheck;

  protected constructor(
    protected readonly ctx: DriverContext,
    private readonly family: KeyFamily,
  ) {
    this.protocolCheck = new KeyProtocolCheck(family.protocol, ctx.log);
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    const { words, busy } = this.family;
    const keys = keyJobData(job, words);
    this.protocolCheck.check(keys);
    const plan = this.plan(keys, job);
    const read = this.readCheckpoint(job.checkpoint, plan.total);
    const cards = this.cards(plan, read);
    await cutKeyCards({
      active: (card) => {
        this.active = card;
      },
      protocol: cards.protocol,
      words,
      read,
      plan,
      job,
      ctx,
      device: this.ctx,
      busy,
      problem: (error) => this.failed(error),
    });
    this.allCut(keys, plan);
    return keyJobResult(keys, cards.encoder, cards.told());
  }

  async reconcile(job: Job, _signal: AbortSignal): Promise<Reconciliation> {
    const { words, encoderId } = this.family;
    const keys = keyJobData(job, words);
    return reconcileKeyJob(job, keys, this.readCheckpoint(job.checkpoint, keys.keyCount), this.ctx.log, {
      done: (cp) => keyJobResult(keys, encoderId ?? keys.keyCutterId, this.toldBy(cp)),
      interrupted: (cp) =>
        this.cutsRestAfterCrash()
          ? { outcome: 'not-done' }
          : { outcome: 'failed', error: interruptedKeyJob(cp, keys.lockIds, words) },
    });
  }

  /** The family's plan of one job; a command it refuses throws COMMAND_INVALID here, nothing sent. */
  protected abstract plan(keys: KeyJobData, job: Job): Plan;

  /** The family's stored checkpoint for a job of `total` cards (absent, unreadable or its counts). */
  protected abstract readCheckpoint(value: unknown, total: number): KeyCheckpointRead<Checkpoint>;

  /** The family's framing of this job's cards, continuing from what `read` confirms. */
  protected abstract cards(plan: Plan, read: KeyCheckpointRead<Checkpoint>): KeyCards<Answer>;

  /** What a completed job's checkpoint kept of the cards, for its reconciled result. */
  protected abstract toldBy(checkpoint: Checkpoint): Readonly<Record<string, string[]>>;

  /** Whether a job a crash interrupted goes on with the cards not yet confirmed; else it ends in Error. */
  protected cutsRestAfterCrash(): boolean {
    return false;
  }

  /** A failure staff read, for the status page's last error. */
  protected failed(_error: AgentError): void {}

  /** Every card of a job was cut. */
  protected allCut(_keys: KeyJobData, _plan: Plan): void {}
}
