import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../src/commands/journal/journal.js';
import type { CommandState } from '../../../src/connector/wire.js';
import { tempFolderEachTest } from '../../helpers/temp-dir.js';

/**
 * `JournalOutbox.heads()` answers from an in-memory index (issue 26.3). The table stays the truth:
 * after any sequence of adds (with supersession), removals, drops, rolled-back transactions and
 * reopenings, the index must agree with the query `heads()` used to run over the table, kept here
 * verbatim as the reference.
 */
const REFERENCE = `SELECT o.seq FROM outbox o JOIN (
    SELECT MIN(seq) AS head,
      MIN(CASE WHEN state IN ('Processed','Error','Cancelled') THEN 0 WHEN state = 'Processing' THEN 1 ELSE 2 END)
        AS urgency
    FROM outbox WHERE command_id NOT IN (SELECT value FROM json_each(?))
    GROUP BY command_id) h ON o.seq = h.head
  ORDER BY h.urgency, o.seq
  LIMIT ?`;

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATES: CommandState[] = ['Received', 'Processing', 'Processed', 'Error', 'Cancelled'];

const tempPath = tempFolderEachTest('outbox-heads-');

describe('the outbox heads index', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`agrees with the table's query after a random sequence of changes (seed ${seed})`, () => {
      const path = tempPath('journal.db');
      const next = random(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
      const commands = Array.from({ length: 12 }, (_, i) => `cmd-${i}`);
      let journal = new Journal(path);
      const reference = new Database(path, { readonly: true });
      let checks = 0;
      try {
        for (let step = 0; step < 600; step++) {
          const roll = next();
          const at = 1_000 + step;
          if (roll < 0.45) {
            const state = pick(STATES);
            const progressOnly = state === 'Processing' && next() < 0.6;
            const pending = journal.outbox.pendingFor(pick(commands));
            const inFlight = new Set(pending.filter(() => next() < 0.3).map((p) => p.seq));
            journal.outbox.add(
              {
                commandId: pick(commands),
                state,
                progress: 0.5,
                progressOnly,
                milestone: progressOnly && next() < 0.3,
              },
              at,
              inFlight,
            );
          } else if (roll < 0.7) {
            const heads = journal.outbox.heads(5);
            const item = heads.length > 0 ? pick(heads) : undefined;
            if (item) journal.outbox.remove(item.seq);
          } else if (roll < 0.78) {
            journal.outbox.dropCommand(pick(commands));
          } else if (roll < 0.86) {
            // Writes inside a transaction that rolls back must leave no trace in the index.
            expect(() =>
              journal.transaction(() => {
                journal.outbox.add({ commandId: pick(commands), state: 'Processed' }, at);
                const first = journal.outbox.heads(1)[0];
                if (first) journal.outbox.remove(first.seq);
                journal.outbox.dropCommand(pick(commands));
                throw new Error('rolled back');
              }),
            ).toThrow();
          } else if (roll < 0.9) {
            journal.close();
            journal = new Journal(path);
          }
          const exclude = new Set(commands.filter(() => next() < 0.2));
          const limit = 1 + Math.floor(next() * 10);
          const expected = reference
            .prepare(REFERENCE)
            .pluck()
            .all(JSON.stringify([...exclude]), limit);
          expect(journal.outbox.heads(limit, exclude).map((item) => item.seq)).toEqual(expected);
          checks++;
        }
      } finally {
        journal.close();
        reference.close();
      }
      expect(checks).toBe(600);
    });
  }
});
