import { describe, expect, it } from 'vitest';
import { fiasMessages } from '../../drivers/fias-lock/messages.js';
import { saltoKeyWords } from '../../drivers/salto-encoder/messages.js';
import {
  type CardCounts,
  cardCountProblem,
  cutKeyCards,
  interruptedKeyJob,
  KEY_BUSY_MAX_WAIT_MS,
  type KeyCardProtocol,
  type KeyCheckpointRead,
  keyJobResult,
} from '../../src/drivers-api/key-jobs.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';
import { english } from '../../src/messages/render.js';
import { recordingExecuteContext } from '../helpers/driver-context.js';

const keys = { keyCount: 2, lockIds: ['202'], keyCutterId: 'kc-1' } as unknown as Parameters<
  typeof keyJobResult
>[0];

describe('key jobs shared by the encoder families', () => {
  it('believes counts that describe the next card of this job only', () => {
    expect(cardCountProblem({ total: 3, confirmed: 1, inFlight: 2 }, 3)).toBeUndefined();
    expect(cardCountProblem({ confirmed: 3 }, 3)).toBeUndefined();
    expect(cardCountProblem({ total: 2, confirmed: 1 }, 3)).toMatch(/written for 2 cards/);
    expect(cardCountProblem({ total: 3, confirmed: 4 }, 3)).toMatch(/4 cards confirmed of 3/);
    expect(cardCountProblem({ total: 3, confirmed: 1, inFlight: 3 }, 3)).toMatch(/card 3 in flight/);
    expect(cardCountProblem({ total: 3, confirmed: 1, inFlight: 3 }, 3, true)).toBeUndefined();
    expect(cardCountProblem({ total: 3, confirmed: 1, inFlight: 1 }, 3, true)).toMatch(/in flight/);
    expect(cardCountProblem({ total: 3, confirmed: 2, inFlight: 4 }, 3, true)).toMatch(/in flight/);
  });

  it('reports the encoder and only the card lists the encoder filled', () => {
    const result = keyJobResult(keys, 'enc-7', { serials: ['A1', 'B2'], answers: [] });
    expect(result.details).toEqual({ keys: 2, rooms: ['202'], encoderId: 'enc-7', serials: ['A1', 'B2'] });
    expect(english(result.notes)).toBe('2 keys for room 202');
    expect(keyJobResult(keys, undefined, {}).details).toEqual({ keys: 2, rooms: ['202'] });
  });

  it('tells staff how far an interrupted job got, in each family’s words', () => {
    for (const words of [saltoKeyWords, fiasMessages]) {
      const first = interruptedKeyJob({ total: 2, confirmed: 0, inFlight: 1 }, ['202'], words);
      expect(first.code).toBe('STATE_UNKNOWN');
      expect(english(first.notes)).toMatch(/first key for room 202/);
      const later = interruptedKeyJob({ total: 3, confirmed: 1, inFlight: 2 }, ['202'], words);
      expect(english(later.notes)).toMatch(/1 of 3 keys was cut before the agent restarted.*Card 2/);
      expect(later.details).toEqual({ confirmed: 1, total: 3, inFlight: 2 });
    }
  });
});

/** A key family in memory: each card's answers come from `script`, in order ('send'/'reply': a lost exchange). */
function scriptedCards(script: Array<'ok' | 'busy' | 'refused' | 'send' | 'reply'>) {
  const sent: number[] = [];
  const protocol: KeyCardProtocol<'ok' | 'busy' | 'refused'> = {
    exchange: async (card, stored) => {
      const next = script.shift() ?? 'ok';
      if (next === 'send') {
        await stored();
        throw new AgentError('DEVICE_UNAVAILABLE', 'gone', { details: { phase: 'send', nothingSent: true } });
      }
      await stored();
      sent.push(card);
      if (next === 'reply')
        throw new AgentError('DEVICE_TIMEOUT', 'no answer', { details: { phase: 'reply' } });
      return next;
    },
    judge: (answer) =>
      answer === 'ok'
        ? { kind: 'written' }
        : { kind: answer, error: new AgentError('DEVICE_BUSY', answer, { notes: fiasMessages.noDetails() }) },
    written: () => undefined,
    checkpoint: (counts) => ({ ...counts }),
  };
  return { sent, protocol };
}

async function cut(
  script: Parameters<typeof scriptedCards>[0],
  read: KeyCheckpointRead<CardCounts> = { kind: 'absent' },
) {
  const { sent, protocol } = scriptedCards(script);
  const ctx = recordingExecuteContext();
  const waits: number[] = [];
  const clock = { now: () => 0, sleep: async (ms: number) => void waits.push(ms) };
  const error = await cutKeyCards({
    protocol,
    words: fiasMessages,
    read,
    plan: { total: 3, rooms: ['202'] },
    job: { commandId: 'cmd-1' },
    ctx,
    device: { clock, log: silentLogger },
    busy: { busyRetries: 8, busyBackoffMs: 5000 },
  }).then(
    () => undefined,
    (e: unknown) => toAgentError(e),
  );
  return { sent, checkpoints: ctx.checkpoints, waits, error, notes: error && english(error.notes) };
}

describe('the one key-job loop (cutKeyCards)', () => {
  it('checkpoints around every card; a busy card is asked again after the capped backoff, a refusal ends the job', async () => {
    const out = await cut(['ok', 'busy', 'busy', 'busy', 'busy', 'ok', 'refused']);
    expect(out.sent).toEqual([1, 2, 2, 2, 2, 2, 3]);
    expect(out.waits).toEqual([5000, 10_000, 20_000, KEY_BUSY_MAX_WAIT_MS]);
    expect(out.checkpoints.slice(0, 4)).toEqual([
      { total: 3, confirmed: 0, inFlight: 1 },
      { total: 3, confirmed: 1 },
      { total: 3, confirmed: 1, inFlight: 2 },
      { total: 3, confirmed: 1 },
    ]);
    expect(out.checkpoints.slice(-2)).toEqual([
      { total: 3, confirmed: 2, inFlight: 3 },
      { total: 3, confirmed: 2 },
    ]);
    expect(out.notes).toBe('no details given 2 of 3 keys were cut before this.');
    expect(out.error?.details).toMatchObject({ confirmed: 2, total: 3, nothingSent: false });
  });

  it('a request that never left takes its card off the checkpoint; a retry is offered only while no card was cut', async () => {
    const first = await cut(['send']);
    expect(first.checkpoints).toEqual([
      { total: 3, confirmed: 0, inFlight: 1 },
      { total: 3, confirmed: 0 },
    ]);
    expect(first.error?.details.nothingSent).toBe(true);
    const later = await cut(['ok', 'send']);
    expect(later.checkpoints.at(-1)).toEqual({ total: 3, confirmed: 1 });
    expect(later.error?.details.nothingSent).toBe(false);
  });

  it('a lost answer ends the job, never asked again: that card may be written', async () => {
    const out = await cut(['ok', 'reply']);
    expect(out.sent).toEqual([1, 2]);
    expect(out.checkpoints.at(-1)).toEqual({ total: 3, confirmed: 1, inFlight: 2 });
    expect([out.error?.code, out.error?.retryable, out.notes]).toEqual([
      'DEVICE_TIMEOUT',
      false,
      'The lock server did not answer for key 2 of 3 for room 202; that card may have been written: test it before handing it out. 1 of 3 keys was cut before this.',
    ]);
  });

  it('continues after the confirmed cards; an unreadable checkpoint sends nothing', async () => {
    const on = await cut([], { kind: 'ok', checkpoint: { total: 3, confirmed: 2 } });
    expect([on.sent, on.error]).toEqual([[3], undefined]);
    const unreadable = await cut([], { kind: 'unreadable', problem: 'garbled' });
    expect([unreadable.sent, unreadable.checkpoints, unreadable.error?.code]).toEqual([
      [],
      [],
      'STATE_UNKNOWN',
    ]);
  });
});
