import { z } from 'zod';
import type { Clock } from '../../src/clock.js';
import type { EmbeddedJson } from '../../src/connector/model.js';
import { milliseconds } from '../../src/drivers-api/options.js';
import { AgentError, isErrorCode } from '../../src/errors.js';

/**
 * What a simulated device does for one command. The platform simulator can script it per command
 * through the command's embedded JSON (`FiscalMachineData` / `KeyCutterData`):
 * `{"sim": {"outcome": "PAPER_OUT", "durationMs": 50, "failAtCard": 2}}`; otherwise the driver's
 * options decide (a duration with jitter and a failure rate), seeded so a run is reproducible.
 */
export const SimOptionsSchema = z.object({
  /** Mean time a job takes on the simulated device. */
  durationMs: milliseconds(0, 300),
  /** Uniform jitter added to `durationMs` (0..jitterMs). */
  jitterMs: milliseconds(0, 200),
  /** Fraction of jobs that fail with `failCode` when the command scripts nothing. */
  failRate: z.number().min(0).max(1).default(0),
  failCode: z.string().refine(isErrorCode, 'unknown error code').default('DEVICE_ERROR'),
  /** Append-only file that remembers what the device did (see ledger.ts). */
  ledgerPath: z.string().min(1).optional(),
  seed: z.number().int().default(1),
});
export type SimOptions = z.infer<typeof SimOptionsSchema>;

export interface SimScript {
  outcome: 'ok' | AgentError['code'];
  durationMs: number;
  /** For encoders: the card (1-based) at which a scripted failure happens. */
  failAtCard?: number;
}

const DirectiveSchema = z.object({
  outcome: z.string().optional(),
  durationMs: z.number().int().min(0).max(600_000).optional(),
  failAtCard: z.number().int().min(1).optional(),
});

export { seededRandom } from '../../src/random.js';

/** Decides the script for one job from the command's directive, else from the options. */
export function scriptFor(embedded: EmbeddedJson, options: SimOptions, random: () => number): SimScript {
  const duration = options.durationMs + Math.floor(random() * (options.jitterMs + 1));
  const failing = random() < options.failRate;
  const parsed = DirectiveSchema.safeParse(embedded.value.sim);
  if (parsed.success && embedded.value.sim !== undefined) {
    const d = parsed.data;
    const outcome = d.outcome && d.outcome !== 'ok' && isErrorCode(d.outcome) ? d.outcome : 'ok';
    const script: SimScript = { outcome, durationMs: d.durationMs ?? duration };
    if (d.failAtCard !== undefined) script.failAtCard = d.failAtCard;
    return script;
  }
  return { outcome: failing ? (options.failCode as AgentError['code']) : 'ok', durationMs: duration };
}

/** Sleeps on the injected clock; an abort becomes ABORTED. */
export async function simulatedWork(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  try {
    await clock.sleep(ms, signal);
  } catch (error) {
    throw new AgentError('ABORTED', 'The job was cancelled while the simulated device worked', {
      cause: error,
    });
  }
}
