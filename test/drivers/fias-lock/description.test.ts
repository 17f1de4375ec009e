import { describe, expect, it } from 'vitest';
import {
  DescriptionBuilder,
  fieldList,
  MAX_DESCRIBED_RECORDS,
  MAX_FIELDS_PER_RECORD,
} from '../../../drivers/fias-lock/description.js';
import { FiasLink } from '../../../drivers/fias-lock/link.js';
import { encodeRecord, parseRecordText, RecordDecoder } from '../../../drivers/fias-lock/records.js';
import { ManualClock } from '../../../src/clock.js';
import { createMemoryLogger } from '../../../src/log.js';
import { createMemoryPair } from '../../../src/transport/testing/memory.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';

/**
 * Issue 40 M2: the lock server's description (LD, LR) was kept without bound
 * (`link.ts:289-294`), so 32 MB of LR records from the peer was an out-of-memory exit, repeated
 * after every restart. Every value kept from the peer is now bounded (`description.ts`, citing
 * the IFC8 FIAS specification 2.20.23 p.18–19: `RI` two characters, `V#` max 10, `RT` N max 4),
 * and a re-description while Alive that is never closed by its LA is dropped after
 * `linkTimeoutMs` (§5 p.16). The stream below failed its first bound at c51eec2.
 */

const LINK = {
  timezone: 'Europe/Rome',
  hotelId: '1',
  answerTimeoutMs: 60_000,
  linkTimeoutMs: 30_000,
  aliveCheckMs: 0,
  aliveTimeoutMs: 30_000,
  linkEndWaitMs: 0,
};

const frame = (text: string) => encodeRecord(parseRecordText(text) ?? { type: 'XX', fields: [] });

/** A link over an in-memory cable, with the lock server's end and what the agent sent it. */
async function linkUnderTest() {
  const clock = new ManualClock();
  const log = createMemoryLogger({ level: 'info' });
  const pair = createMemoryPair('fias');
  await pair.a.open();
  await pair.b.open();
  const sent: string[] = [];
  const decoder = new RecordDecoder();
  pair.b.onData((chunk) => {
    for (const e of decoder.push(chunk)) if (e.kind === 'record') sent.push(e.record.type);
  });
  const link = new FiasLink(pair.a, 'lock server', { ...LINK, clock, log });
  link.start();
  return { link, clock, log, sent, peer: pair.b };
}

/**
 * About 1 MiB of LR records, each near the longest frame the decoder keeps (4 KiB): a field
 * list of 2,000 ids, the record ids two characters and all different, then some longer ones.
 */
function lrBurst(round: number): Buffer {
  const frames: Buffer[] = [];
  const list = 'AB'.repeat(1000) + 'CDEF'.repeat(500);
  for (let i = 0; i < 256; i++) {
    const id =
      i < 200 ? (round * 256 + i).toString(36).padStart(2, '0').slice(-2).toUpperCase() : `R${round}X${i}`;
    frames.push(frame(`LR|RI${id}|FL${list}|`));
  }
  return Buffer.concat(frames);
}

describe('fias-lock: what the agent keeps of the lock server’s description is bounded (issue 40 M2)', () => {
  it('32 MB of LR records, described and closed again and again: at most 64 records of 100 fields each are kept, and the link goes on', async () => {
    const { link, peer, log } = await linkUnderTest();
    let streamed = 0;
    for (let round = 0; streamed < 32 * 1024 * 1024; round++) {
      await peer.write(frame(`LD|DA261004|TI120000|V#${'9'.repeat(100)}|IFDLXXXXXXXX|RT123456|`));
      const burst = lrBurst(round);
      await peer.write(burst);
      await peer.write(frame('LA|DA261004|TI120001|'));
      streamed += burst.length;
      await letPendingWorkRun();
      const described = link.description;
      expect(described?.records.size).toBeLessThanOrEqual(MAX_DESCRIBED_RECORDS);
      for (const fields of described?.records.values() ?? []) {
        expect(fields.length).toBeLessThanOrEqual(MAX_FIELDS_PER_RECORD);
      }
    }
    expect(link.state).toBe('alive');
    expect(link.description?.records.size).toBe(MAX_DESCRIBED_RECORDS);
    expect(link.description?.version).toHaveLength(32);
    expect(link.description?.family).toBe('DLXXXXXX');
    expect(link.description?.requestType).toBeUndefined();
    expect(log.lines.filter((l) => l.includes('described more than the agent keeps')).length).toBeGreaterThan(
      0,
    );
  });

  it('a re-description while Alive that its LA never closes is dropped after linkTimeoutMs; the description in force stays', async () => {
    const { link, peer, clock, log } = await linkUnderTest();
    await peer.write(frame('LD|DA261004|TI120000|V#1.0|IFDL|'));
    await peer.write(frame('LR|RIKR|FLWSKCRNKTG#|'));
    await peer.write(frame('LA|DA261004|TI120001|'));
    await letPendingWorkRun();
    expect(link.state).toBe('alive');
    await peer.write(frame('LD|DA261004|TI120100|V#2.0|IFDL|'));
    await peer.write(frame('LR|RIKR|FLWSKC|'));
    await letPendingWorkRun();
    // More LDs do not put the end off.
    await clock.advance(20_000);
    await peer.write(frame('LD|DA261004|TI120120|V#3.0|IFDL|'));
    await letPendingWorkRun();
    await clock.advance(10_000);
    expect(log.lines.filter((l) => l.includes('did not finish (LA) in time'))).toHaveLength(1);
    await peer.write(frame('LA|DA261004|TI120200|'));
    await letPendingWorkRun();
    expect(link.description?.version).toBe('1.0');
    expect(link.description?.records.get('KR')).toEqual(['WS', 'KC', 'RN', 'KT', 'G#']);
  });

  it('reads the field list as two-character ids, the first 100, without repeats; ignores a record id that is not two characters', () => {
    expect(fieldList('WSKCRNKTG#$2')).toEqual(['WS', 'KC', 'RN', 'KT', 'G#', '$2']);
    expect(fieldList('WSWSKC K')).toEqual(['WS', 'KC']);
    expect(fieldList('ABCDABEFGH', 3)).toEqual(['AB', 'CD']);
    const builder = new DescriptionBuilder(parseRecordText('LD|V#1.0|IFDL|RT183|'));
    builder.add(parseRecordText('LR|RIKR|FLWSKC|') ?? { type: 'LR', fields: [] });
    builder.add(parseRecordText('LR|RIKRX|FLWS|') ?? { type: 'LR', fields: [] });
    builder.add(parseRecordText('LR|FLWS|') ?? { type: 'LR', fields: [] });
    const built = builder.build();
    expect([...built.records.keys()]).toEqual(['KR']);
    expect(built.requestType).toBe(183);
    expect(builder.ignored).toBe(2);
  });
});
