import { describe, expect, it } from 'vitest';
import { emailFor, GUEST_NAMES, normalizeName } from '../../src/platform-simulator/names.js';

describe('guest names', () => {
  it('normalises to plain ASCII letters', () => {
    expect(normalizeName('Zoë')).toBe('Zoe');
    expect(normalizeName('Müller-Lüdenscheidt')).toBe('Muller-Ludenscheidt');
    expect(normalizeName('Ægir')).toBe('AEgir');
    expect(normalizeName('Þórsson')).toBe('Thorsson');
    expect(normalizeName('Wąsowska-Żółć')).toBe('Wasowska-Zolc');
    expect(normalizeName('Øystein Brænne')).toBe('Oystein Braenne');
    expect(normalizeName(undefined)).toBeUndefined();
  });

  it('has no normalised form for names in other scripts', () => {
    expect(normalizeName('山田')).toBeUndefined();
    expect(normalizeName('Παπαδοπούλου')).toBeUndefined();
  });

  it('makes plausible e-mail addresses for every guest', () => {
    for (const [i, name] of GUEST_NAMES.entries())
      expect(emailFor(name, i)).toMatch(/^[a-z0-9.]+@example\.org$/);
    expect(emailFor({ firstName: '太郎', lastName: '山田' }, 3)).toBe('guest3@example.org');
  });
});
