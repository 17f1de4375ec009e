import { afterEach, describe, expect, it } from 'vitest';
import { driverRegistry } from '../../../drivers/index.js';
import type { Driver } from '../../../src/drivers-api/types.js';
import { CELLS } from './cells.js';
import { keyMatrixFamilies } from './families.js';
import type { Expected, KeyMatrixRig } from './family.js';

/**
 * The key recovery matrix (issue 42 items 2 and 4): every key family of the registry
 * (`drivers/index.ts`, device type KeyCutter) against its device, through the same faults —
 * killed after a card, a lost answer, the link replaced mid-card, the encoder rebooted, a busy
 * encoder, a corrupt checkpoint — each cell naming the outcome (done / not done / failed with how
 * many keys cut and which card is in doubt / unknown) and why. The device's own record says what
 * it wrote and how often it was asked: a card is never asked for twice.
 */

const keyKinds: string[] = [];
for (const [kind, load] of driverRegistry) {
  if ((await load()).deviceType === 'KeyCutter') keyKinds.push(kind);
}

let rig: KeyMatrixRig | undefined;
const drivers: Driver[] = [];

afterEach(async () => {
  for (const d of drivers.splice(0)) await d.close();
  await rig?.dispose();
  rig = undefined;
});

const opened = async (driver: Promise<Driver>) => {
  const d = await driver;
  drivers.push(d);
  return d;
};

describe('key recovery matrix', () => {
  it('plays every key family of the registry', () => {
    expect(keyKinds.filter((kind) => !keyMatrixFamilies.has(kind))).toEqual([]);
    expect(keyKinds.length).toBeGreaterThanOrEqual(2);
  });

  for (const kind of keyKinds) {
    const family = keyMatrixFamilies.get(kind);
    if (!family) continue;
    describe(kind, () => {
      for (const cell of CELLS) {
        const cannot = family.cannot[cell.name];
        const expected = family.expects?.[cell.name] ?? cell.expect;
        if (cannot !== undefined) {
          // Not played, and said so: the reason is a sentence, and the family does not also name
          // an outcome for it (a cell is either played or explained, never both).
          it(`${cell.name}: not played, because ${cannot}`, () => {
            expect(cannot.trim().length).toBeGreaterThan(10);
            expect(family.expects?.[cell.name]).toBeUndefined();
          });
          continue;
        }
        if (!expected) {
          it(`${cell.name}: the family names its outcome`, () =>
            expect.fail(`${kind} plays "${cell.name}" but names no outcome`));
          continue;
        }
        const { why, ...outcome } = expected;
        it(`${cell.name} (${cell.plays}) → ${describeOutcome(outcome)}, because ${why}`, async () => {
          rig = await family.rig();
          expect(await cell.run(rig, opened)).toEqual(outcome);
        });
      }
    });
  }
});

function describeOutcome(o: Omit<Expected, 'why'>): string {
  if (o.outcome !== 'failed') return o.outcome;
  return `failed with ${o.cut} cut${o.inDoubt ? `, card ${o.inDoubt} in doubt` : ''}`;
}
