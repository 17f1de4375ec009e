import { afterEach, describe, expect, it } from 'vitest';
import { kindsOf } from '../../../drivers/index.js';
import { ManualClock } from '../../../src/clock.js';
import { CELLS } from './cells.js';
import { matrixFamilies } from './families/index.js';
import type { MatrixRig } from './family.js';

/**
 * The RT recovery matrix (issue 42 item 3): every cell over every RT family the registry lists
 * (`drivers/index.ts`, group `rt-printer`), each against its own simulator in-process, on a manual
 * clock. A cell a family's protocol cannot meet is named with its reason and source.
 */
const families = kindsOf('rt-printer');

describe('the RT recovery matrix covers every registered RT family', () => {
  it('has an adapter for each, and each cell either runs or is explained', () => {
    expect(families.filter((kind) => !matrixFamilies.has(kind))).toEqual([]);
    for (const kind of families) {
      const family = matrixFamilies.get(kind);
      for (const [cell, why] of Object.entries(family?.notApplicable ?? {})) {
        expect(
          CELLS.map((c) => c.name),
          `${kind}: ${cell}`,
        ).toContain(cell);
        expect(why.length, `${kind}: why ${cell} does not apply`).toBeGreaterThan(40);
      }
    }
  });
});

for (const kind of families) {
  const family = matrixFamilies.get(kind);
  if (!family) continue;
  describe(`RT recovery matrix: ${kind}`, () => {
    let rig: MatrixRig | undefined;
    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });
    for (const cell of CELLS) {
      if (family.notApplicable[cell.name]) continue;
      it(`${cell.name} → ${cell.expect} (${cell.source})`, async () => {
        const clock = new ManualClock(Date.UTC(2026, 2, 13, 9, 0));
        rig = await family.rig(clock, { settleMinutes: cell.settleMinutes ?? 0 });
        await cell.run(rig, clock, family);
      });
    }
  });
}
