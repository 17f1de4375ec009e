import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, HistoryRing } from '../../../drivers/fiscal-it/rt/history-ring.js';
import { memoryStore } from '../../helpers/driver-context.js';

const sale = (doc: number, z = 1) => ({ z, doc, kind: 'sale' as const, totalCents: doc * 100 });

describe('the RT printed-document history (a ring of store values)', () => {
  it('keeps the last HISTORY_LIMIT documents and forgets older ones', () => {
    const store = memoryStore();
    const ring = new HistoryRing(store);
    for (let doc = 1; doc <= HISTORY_LIMIT + 50; doc++) ring.remember(sale(doc));
    expect(ring.find(1, 50)).toBeUndefined();
    expect(ring.find(1, 51)).toEqual(sale(51));
    expect(ring.find(1, HISTORY_LIMIT + 50)).toEqual(sale(HISTORY_LIMIT + 50));
    // A fresh instance (a restart) reads the same from the store.
    expect(new HistoryRing(store).find(1, 200)).toEqual(sale(200));
  });

  it('writes one slot and the counter per document, whatever the history holds', () => {
    const store = memoryStore();
    const ring = new HistoryRing(store);
    for (let doc = 1; doc <= HISTORY_LIMIT; doc++) ring.remember(sale(doc));
    const sizes = [...store.data.values()].map((v) => v.length);
    expect(Math.max(...sizes)).toBeLessThan(120);
    expect(store.data.size).toBe(HISTORY_LIMIT + 1);
  });

  it('answers the newest entry for a document remembered twice (a recovery repeating a receipt)', () => {
    const ring = new HistoryRing(memoryStore());
    ring.remember({ z: 2, doc: 7, kind: 'sale' });
    ring.remember({ z: 2, doc: 7, kind: 'sale', dateTime: '2026-11-28 10:00', totalCents: 1200 });
    expect(ring.find(2, 7)).toEqual({
      z: 2,
      doc: 7,
      kind: 'sale',
      dateTime: '2026-11-28 10:00',
      totalCents: 1200,
    });
    expect(ring.find(3, 7)).toBeUndefined();
  });

  it('moves an older build’s history array into the ring, and skips entries it cannot read', () => {
    const store = memoryStore();
    store.set('history', [sale(1), sale(2)]);
    store.set('history.5', { z: 'x' });
    const ring = new HistoryRing(store);
    expect(ring.find(1, 2)).toEqual(sale(2));
    expect(store.get('history')).toBeUndefined();
    ring.remember(sale(3));
    expect(ring.find(1, 1)).toEqual(sale(1));
    expect(ring.find(1, 3)).toEqual(sale(3));
  });
});
