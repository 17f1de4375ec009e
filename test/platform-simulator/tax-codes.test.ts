import { describe, expect, it } from 'vitest';
import { isValidCodiceFiscale, isValidPartitaIva } from '../../drivers/fiscal-it/customer-codes.js';
import { createRng } from '../../src/platform-simulator/rng.js';
import {
  customerTaxIdentifier,
  PUBLIC_CODICI_FISCALI,
  PUBLIC_PARTITE_IVA,
} from '../../src/platform-simulator/tax-codes.js';

// The codes are public examples, each valid by the Agenzia delle Entrate's check rules:
// fiskaltrust/middleware scu-it tests (01606720215, RSSMRA80A01H501U),
// darioquintana/NHibernate-Validator src/NHibernate.Validator.Specific.Tests/It/PartitaIVAFixture.cs
// (01636120634, 01463240745), pagopa/io-backend test fixtures (GRBGPP87L04L741X).
describe('the simulator’s customer tax codes', () => {
  it('are public examples that pass the driver’s check-digit validation', () => {
    for (const piva of PUBLIC_PARTITE_IVA) expect(isValidPartitaIva(piva), piva).toBe(true);
    for (const cf of PUBLIC_CODICI_FISCALI) expect(isValidCodiceFiscale(cf), cf).toBe(true);
  });

  it('the validation refuses a code with a wrong check character', () => {
    expect(isValidPartitaIva('01606720216')).toBe(false);
    expect(isValidCodiceFiscale('RSSMRA80A01H501V')).toBe(false);
  });

  it('gives a code to some bills only, of both kinds', () => {
    const rng = createRng(11);
    const codes = Array.from({ length: 400 }, () => customerTaxIdentifier(rng));
    const given = codes.filter((c): c is string => c !== undefined);
    expect(given.length).toBeGreaterThan(50);
    expect(given.length).toBeLessThan(200);
    expect(new Set(given.filter((c) => /^\d{11}$/.test(c)))).toEqual(new Set(PUBLIC_PARTITE_IVA));
    expect(new Set(given.filter((c) => /^[A-Z]{6}/.test(c)))).toEqual(new Set(PUBLIC_CODICI_FISCALI));
  });
});
