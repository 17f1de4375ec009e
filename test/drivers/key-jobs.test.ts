import { describe, expect, it } from 'vitest';
import { fiasMessages } from '../../drivers/fias-lock/messages.js';
import { saltoMessages } from '../../drivers/salto-encoder/messages.js';
import { cardCountProblem, interruptedKeyJob, keyJobResult } from '../../src/drivers-api/key-jobs.js';
import { english } from '../../src/messages/render.js';

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
    for (const words of [saltoMessages, fiasMessages]) {
      const first = interruptedKeyJob({ total: 2, confirmed: 0, inFlight: 1 }, ['202'], words);
      expect(first.code).toBe('STATE_UNKNOWN');
      expect(english(first.notes)).toMatch(/first key for room 202/);
      const later = interruptedKeyJob({ total: 3, confirmed: 1, inFlight: 2 }, ['202'], words);
      expect(english(later.notes)).toMatch(/1 of 3 keys was cut before the agent restarted.*Card 2/);
      expect(later.details).toEqual({ confirmed: 1, total: 3, inFlight: 2 });
    }
  });
});
