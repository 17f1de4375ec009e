import type { KeyJobData } from '../../src/connector/model.js';
import { KeyCardDriver, type KeyCards } from '../../src/drivers-api/key-driver.js';
import type { KeyCardProtocol, KeyCheckpointRead } from '../../src/drivers-api/key-jobs.js';
import { statusOrUnavailable } from '../../src/drivers-api/status.js';
import type { DeviceStatus, Driver, DriverContext, Job } from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { judgeAnswer, type KeyAnswer, readAnswer } from './answers.js';
import { type KeyCheckpoint, keyCheckpoint, readKeyCheckpoint } from './checkpoint.js';
import type { FiasLockOptions } from './config.js';
import { acquireEndpoint, type FiasEndpoint } from './endpoint.js';
import { fiasMessages } from './messages.js';
import { type KeyPlan, planKeyJob } from './plan.js';
import { type LastKey, linkStatus } from './status.js';

/**
 * Cuts guest keys through a FIAS lock server (dormakaba Ambiance and Saflok's FIAS interface,
 * Salto Space's "Oracle Hospitality PMS (FIAS)", any Oracle-certified key system): the agent is
 * the PMS, the lock server connects to it, and every card is one key request (KR) answered by one
 * key answer (KA) — confirmed, checkpointed and reported as a progress milestone.
 *
 * - `open()` listens (once) and waits up to `openWaitMs` for the lock server's link to be Alive;
 *   without one it rejects DEVICE_UNAVAILABLE and keeps listening, so the lock server may
 *   connect whenever it comes back.
 * - `execute` continues from `job.checkpoint` (confirmed cards are never cut again), stops
 *   between cards on abort, pauses and retries a card the lock server answers BY/RY.
 * - At most once: a KR whose answer is lost (link dropped, no KA in time, agent killed) ends in
 *   Error saying that card may have been written and must be tested — never a silent resend.
 */
export class FiasLockDriver extends KeyCardDriver<KeyAnswer, KeyPlan, KeyCheckpoint> implements Driver {
  private endpoint: FiasEndpoint | undefined;
  private keysCut = 0;
  private lastKey: LastKey | undefined;
  private lastProblem: AgentError | undefined;

  constructor(
    private readonly options: FiasLockOptions,
    ctx: DriverContext,
  ) {
    super(ctx, { protocol: 'fias', words: fiasMessages, busy: options, encoderId: options.encoderId });
  }

  async open(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new AgentError('ABORTED', 'open cancelled');
    this.endpoint ??= acquireEndpoint(this.options, this.ctx);
    try {
      await this.endpoint.listen();
      await this.endpoint.waitAlive(signal, this.options.openWaitMs);
      this.lastProblem = undefined;
    } catch (error) {
      const e = toAgentError(error, 'DEVICE_UNAVAILABLE');
      if (e.code !== 'ABORTED') this.lastProblem = e;
      throw e;
    }
  }

  protected plan(keys: KeyJobData, job: Job): KeyPlan {
    return planKeyJob(keys, this.options, this.ctx.timezone, job.command.creatorName);
  }

  protected readCheckpoint(value: unknown, total: number): KeyCheckpointRead<KeyCheckpoint> {
    return readKeyCheckpoint(value, total);
  }

  /** The lock server's answers are kept for the result; its checkpoint keeps only counts. */
  protected cards(plan: KeyPlan): KeyCards<KeyAnswer> {
    const answers: string[] = [];
    return { protocol: this.cardProtocol(plan, answers), encoder: plan.encoder, told: () => ({ answers }) };
  }

  protected toldBy(): Readonly<Record<string, string[]>> {
    return {};
  }

  protected override failed(error: AgentError): void {
    this.lastProblem = error;
  }

  protected override allCut(keys: KeyJobData, plan: KeyPlan): void {
    this.lastKey = { count: plan.total, rooms: keys.lockIds, at: this.ctx.clock.now() };
  }

  status(): DeviceStatus {
    return statusOrUnavailable(() =>
      linkStatus({
        options: this.options,
        endpoint: this.endpoint?.state,
        active: this.active,
        keysCut: this.keysCut,
        lastKey: this.lastKey,
        lastProblem: this.lastProblem,
      }),
    );
  }

  async close(): Promise<void> {
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.release().catch(() => undefined);
  }

  /**
   * FIAS framing for the key loop: one KR per card over the Alive link, in the encoder's turn
   * (a KA names only the workstation and the encoder, so one request per pair at a time), and
   * the KA's status as the card's verdict (answers.ts).
   */
  private cardProtocol(plan: KeyPlan, answers: string[]): KeyCardProtocol<KeyAnswer> {
    const key = {
      workstation: plan.workstation,
      encoder: plan.encoder,
      ...(plan.reservation ? { reservation: plan.reservation } : {}),
    };
    return {
      exchange: async (card, stored, signal) => {
        const endpoint = this.endpoint;
        const link = endpoint?.link;
        if (!endpoint || link?.state !== 'alive') {
          throw (
            endpoint?.unavailable() ??
            new AgentError('DEVICE_UNAVAILABLE', 'the device is not open', { details: { nothingSent: true } })
          );
        }
        // Refusals that need the lock server's description (several rooms, no SI) come before the checkpoint.
        const type = card === 1 && this.options.firstKey === 'new' ? 'N' : 'D';
        const kr = plan.request(type, link.description, this.ctx.clock.now());
        return endpoint.turn(`${key.workstation}|${key.encoder}`, async () => {
          await stored();
          return readAnswer(await link.request(kr, key, this.options.answerTimeoutMs, signal));
        });
      },
      judge: judgeAnswer,
      written: (answer) => {
        this.keysCut++;
        if (answer.text) answers.push(answer.text);
      },
      checkpoint: (counts) => keyCheckpoint(counts.total, counts.confirmed, counts.inFlight),
    };
  }
}
