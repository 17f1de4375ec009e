import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/simulator/rng.js';
import {
  codiceFiscale,
  codiceFiscaleCheckLetter,
  customerTaxIdentifier,
  partitaIva,
  partitaIvaCheckDigit,
} from '../../src/simulator/tax-codes.js';

// The public drivers' own examples: fiskaltrust/middleware scu-it tests use the partita IVA
// 01606720215 and the codice fiscale RSSMRA80A01H501U, both valid.
describe('the simulator’s customer tax codes', () => {
  it('computes the check characters of the public examples', () => {
    expect(partitaIvaCheckDigit('0160672021')).toBe(5);
    expect(codiceFiscaleCheckLetter('RSSMRA80A01H501')).toBe('U');
  });

  it('makes codes that pass their own check, in the right form', () => {
    const rng = createRng(7);
    for (let i = 0; i < 200; i++) {
      const piva = partitaIva(rng);
      expect(piva).toMatch(/^\d{11}$/);
      expect(partitaIvaCheckDigit(piva.slice(0, 10))).toBe(Number(piva[10]));
      const cf = codiceFiscale(rng);
      expect(cf).toMatch(/^[A-Z]{6}\d{2}[ABCDEHLMPRST]\d{2}[A-Z]\d{3}[A-Z]$/);
      expect(codiceFiscaleCheckLetter(cf.slice(0, 15))).toBe(cf[15]);
    }
  });

  it('gives a code to some bills only, of both kinds', () => {
    const rng = createRng(11);
    const codes = Array.from({ length: 400 }, () => customerTaxIdentifier(rng));
    const given = codes.filter((c): c is string => c !== undefined);
    expect(given.length).toBeGreaterThan(50);
    expect(given.length).toBeLessThan(200);
    expect(given.some((c) => /^\d{11}$/.test(c))).toBe(true);
    expect(given.some((c) => /^[A-Z]{6}/.test(c))).toBe(true);
  });
});
