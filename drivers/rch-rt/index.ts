import type { DriverFactory } from '../../src/drivers-api/types.js';
import { rtDriverFactory } from '../fiscal-it/rt/factory.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { CHECKPOINT_VERSION } from './checkpoint.js';
import { type RchRtOptions, RchRtOptionsSchema } from './config.js';
import { describeOptions } from './describe.js';
import { rchFamily } from './family.js';

export type { RchRtOptions } from './config.js';
export { RchRtOptionsSchema } from './config.js';

/**
 * The simulated printer programmed as the configuration expects a real one to be (README,
 * _Setting up_): one VAT slot per rate and nature of the department table, each department on the
 * slot of its class. An RCH department carries its VAT in the printer's programming
 * (rch-driver-js-core `R(deptId, …, vat, …)`), so the driver sends departments only.
 */
export function simulatedProgramming(options: Pick<RchRtOptions, 'departments'>) {
  const vat: Record<number, { rateBp: number } | { nature: string }> = {};
  const departments: Record<number, { description: string; vat: number; kind: 'goods' | 'services' }> = {};
  let slot = 0;
  for (const [key, department] of Object.entries(departmentTable(options))) {
    vat[++slot] = /^N/.test(key) ? { nature: key } : { rateBp: Math.round(Number(key) * 100) };
    departments[department] = { description: `REPARTO ${department}`, vat: slot, kind: 'services' };
  }
  return { vat, departments };
}

/** RCH RT printers (Print!F, Print!RT, Onda RT, the Tuttopos line) over RCH's web service. */
export const rchRtFactory: DriverFactory<RchRtOptions> = rtDriverFactory({
  kind: 'rch-rt',
  family: rchFamily,
  configSchema: RchRtOptionsSchema,
  checkpointVersion: CHECKPOINT_VERSION,
  describe: describeOptions,
  simulator: {
    example: 'http://127.0.0.1:8095',
    // An RCH serial: 72, two letters, seven digits (rch-driver-js `src/RegexUtils.ts`).
    serial: (options, digits) => options.serialNumber ?? `72MS0${digits}`,
    what: 'simulated RCH RT printer',
    start: async (where, options) =>
      (await import('./simulator/index.js')).startRchRtSimulator({
        ...where,
        ...simulatedProgramming(options),
      }),
  },
});
