import { describe, expect, it } from 'vitest';
import { localDate, zonedToUtc, zoneOffsetMinutes } from '../../src/platform-simulator/time.js';

describe('property-local time', () => {
  it('knows Rome is UTC+1 in winter and UTC+2 in summer', () => {
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 15, 12), 'Europe/Rome')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 15, 12), 'Europe/Rome')).toBe(120);
  });

  it('converts local wall time to UTC, also across the DST switch', () => {
    expect(new Date(zonedToUtc(2026, 1, 15, 14, 0, 'Europe/Rome')).toISOString()).toBe(
      '2026-01-15T13:00:00.000Z',
    );
    expect(new Date(zonedToUtc(2026, 7, 15, 11, 0, 'Europe/Rome')).toISOString()).toBe(
      '2026-07-15T09:00:00.000Z',
    );
    // 29 March 2026: clocks jump from 02:00 to 03:00 in Rome.
    expect(new Date(zonedToUtc(2026, 3, 29, 14, 0, 'Europe/Rome')).toISOString()).toBe(
      '2026-03-29T12:00:00.000Z',
    );
    expect(new Date(zonedToUtc(2026, 3, 28, 14, 0, 'Europe/Rome')).toISOString()).toBe(
      '2026-03-28T13:00:00.000Z',
    );
  });

  it('gives the local calendar date', () => {
    expect(localDate(Date.UTC(2026, 0, 15, 23, 30), 'Europe/Rome')).toEqual([2026, 1, 16]);
    expect(localDate(Date.UTC(2026, 0, 15, 22, 30), 'Europe/Rome')).toEqual([2026, 1, 15]);
  });
});
