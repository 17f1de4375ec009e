import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RT_STAFF_FACTS } from '../../../drivers/fiscal-it/rt/status-card.js';
import { kindsOf } from '../../../drivers/index.js';
import { ManualClock } from '../../../src/clock.js';
import { CELLS, drive } from './cells.js';
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
    it('one status card (issue 42 item 7): staff facts first in the kit’s order, the rest folded', async () => {
      const clock = new ManualClock(Date.UTC(2026, 2, 13, 9, 0));
      rig = await family.rig(clock);
      await drive(
        rig.driver.execute(rig.sale('card'), {
          signal: new AbortController().signal,
          progress: () => undefined,
          checkpoint: async () => undefined,
        }),
        clock,
      );
      await drive(rig.driver.open(new AbortController().signal), clock);
      const status = rig.driver.status();
      const staff = status.staffFacts ?? [];
      expect(staff.slice(0, 3)).toEqual(['paper', 'cover', 'fiscalDayOpen']);
      expect(staff).toEqual(RT_STAFF_FACTS.filter((key) => staff.includes(key)));
      expect(staff).toContain('lastReceipt');
      // "Start of the fiscal day" beside "hours open: 0" is gone: the hours are a technical detail.
      expect(staff).not.toContain('fiscalDayOpenHours');
    });

    it('plan before the turn (issue 42 item 5): during a platform outage a staff X report does not wait behind the receipt', async () => {
      const clock = new ManualClock(Date.UTC(2026, 2, 13, 9, 0));
      let platformBack: (value?: unknown) => void = () => undefined;
      const outage = new Promise((resolve) => {
        platformBack = resolve;
      });
      rig = await family.rig(clock, { billRead: outage });
      const noop = {
        signal: new AbortController().signal,
        progress: () => undefined,
        checkpoint: async () => undefined,
      };
      const receipt = rig.driver.execute(rig.sale('outage'), noop);
      const xReport = rig.driver.actions?.().find((a) => a.name === 'x-report');
      let reported = false;
      void xReport?.run({}, new AbortController().signal).then(() => {
        reported = true;
      });
      for (let turn = 0; !reported && turn < 10_000; turn++) await nextTurn();
      expect(reported, 'the X report ran while the bill could not be read').toBe(true);
      expect(rig.documents('sale')).toHaveLength(0);
      platformBack();
      await drive(receipt, clock);
      expect(rig.documents('sale')).toHaveLength(1);
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
