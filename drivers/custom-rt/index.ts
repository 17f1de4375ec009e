import type { DriverFactory } from '../../src/drivers-api/types.js';
import { rtDriverFactory } from '../fiscal-it/rt/factory.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { CHECKPOINT_VERSION } from './checkpoint.js';
import { type CustomRtOptions, CustomRtOptionsSchema, vatSlotTable } from './config.js';
import { describeOptions } from './describe.js';
import { accountOf, customFamily } from './family.js';

export type { CustomRtOptions } from './config.js';
export { CustomRtOptionsSchema } from './config.js';

/**
 * The simulated printer programmed as the configuration expects a real one to be (README,
 * _Setting up_): its VAT slots at the configured rates, every department on the slot of its rate,
 * and the nature departments on slots of their own at 0 % (a real printer carries the nature as
 * the slot's exemption code, DIO 7112 p.253).
 */
export function simulatedProgramming(options: CustomRtOptions) {
  const slots = vatSlotTable(options);
  const vatRates: Record<number, number> = {};
  for (const [rate, slot] of Object.entries(slots)) vatRates[slot] = Math.round(Number(rate) * 100);
  let free = Math.max(0, ...Object.values(slots)) + 1;
  const natureSlots = new Map<string, number>();
  const exemptCodes: Record<number, number> = {};
  const departments: Record<number, { description: string; idVat: number }> = {};
  for (const [key, department] of Object.entries(departmentTable(options))) {
    let idVat = slots[key];
    if (idVat === undefined && /^N/.test(key)) {
      idVat = natureSlots.get(key) ?? (free <= 11 ? free++ : undefined);
      if (idVat !== undefined) {
        natureSlots.set(key, idVat);
        vatRates[idVat] = 0;
        // The nature's number as its exempt code (1–6, DIO p.253): the manual names none.
        exemptCodes[idVat] = Number(key.charAt(1));
      }
    }
    if (idVat !== undefined) departments[department] = { description: `REPARTO ${department}`, idVat };
  }
  return { vatRates, exemptCodes, departments };
}

/** Custom RT printers (KUBEX, Q3X, K3, BIG PLUS, VKP80III, P3, FUSION, EDGE) over the XML protocol. */
export const customRtFactory: DriverFactory<CustomRtOptions> = rtDriverFactory({
  kind: 'custom-rt',
  family: customFamily,
  configSchema: CustomRtOptionsSchema,
  checkpointVersion: CHECKPOINT_VERSION,
  describe: describeOptions,
  simulator: {
    example: 'http://127.0.0.1:8093',
    // A Custom serial: two letters of the approval, two of the maker, a letter and six digits (STMTE501091).
    serial: (options, digits) => options.serialNumber ?? `STMTE${digits}`,
    what: 'simulated Custom RT printer',
    start: async (where, options) => {
      const account = accountOf(options);
      const extra = { ...simulatedProgramming(options), ...(account ? { credentials: account } : {}) };
      return (await import('./simulator/index.js')).startCustomRtSimulator({ ...where, ...extra });
    },
  },
});
