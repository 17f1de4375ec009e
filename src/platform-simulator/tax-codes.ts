import type { Rng } from './rng.js';

/**
 * Valid Italian customer tax codes for the simulator's bills, taken as they are from public
 * examples rather than computed: the check-digit rules live once, in the Epson driver's
 * validation (`drivers/epson-fpmate/customer-codes.ts`), and the simulator must not depend on the
 * driver it exercises. `test/platform-simulator/tax-codes.test.ts` proves each one passes that validation.
 *
 * - partite IVA: `01606720215` (fiskaltrust/middleware scu-it tests), `01636120634` and
 *   `01463240745` (darioquintana/NHibernate-Validator
 *   `src/NHibernate.Validator.Specific.Tests/It/PartitaIVAFixture.cs`);
 * - codici fiscali: `RSSMRA80A01H501U` (fiskaltrust/middleware scu-it tests) and
 *   `GRBGPP87L04L741X` (pagopa/io-backend test fixtures).
 */
export const PUBLIC_PARTITE_IVA: readonly string[] = ['01606720215', '01636120634', '01463240745'];
export const PUBLIC_CODICI_FISCALI: readonly string[] = ['RSSMRA80A01H501U', 'GRBGPP87L04L741X'];

/**
 * The `TaxIdentifier` a fiscal command carries for its bill: the customer's code when the guest
 * or company asked for it on the receipt (about one bill in four: a partita IVA for a company,
 * a codice fiscale for a person), none otherwise. Drawn from the bill's own stream.
 */
export function customerTaxIdentifier(rng: Rng): string | undefined {
  if (!rng.chance(0.25)) return undefined;
  return rng.chance(0.4) ? rng.pick(PUBLIC_PARTITE_IVA) : rng.pick(PUBLIC_CODICI_FISCALI);
}
