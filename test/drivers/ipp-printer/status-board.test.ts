import { describe, expect, it } from 'vitest';
import { StatusBoard } from '../../../drivers/ipp-printer/status.js';
import { ManualClock } from '../../../src/clock.js';

const info = (reasons: string[]) => ({ state: 3, reasons, accepting: true, formats: ['application/pdf'] });

describe('ipp-printer status: the paperOut fact', () => {
  it('is unknown before a printer answers, then true while any printer reports media-empty*', () => {
    const board = new StatusBoard(new ManualClock(0));
    board.track('Front', 'ipp://127.0.0.1:1/front');
    expect(board.snapshot().facts.paperOut).toBeNull();
    board.answered('Front', 'ipp://127.0.0.1:1/front', info(['none']));
    board.answered('Back', 'ipp://127.0.0.1:1/back', info(['media-empty-error', 'media-needed-report']));
    expect(board.snapshot().facts.paperOut).toBe(true);
    board.answered('Back', 'ipp://127.0.0.1:1/back', info(['media-empty-warning']));
    expect(board.snapshot().facts.paperOut).toBe(true);
    board.answered('Back', 'ipp://127.0.0.1:1/back', info(['none']));
    expect(board.snapshot().facts.paperOut).toBe(false);
  });
});
