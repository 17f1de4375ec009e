import type { DriverFactory } from '../../src/drivers-api/types.js';
import { rtDriverFactory } from '../fiscal-it/rt/factory.js';
import { CHECKPOINT_VERSION } from './checkpoint.js';
import { type EpsonFpmateOptions, EpsonFpmateOptionsSchema } from './config.js';
import { describeOptions } from './describe.js';
import { epsonFamily } from './family.js';

export type { EpsonFpmateOptions } from './config.js';
export { EpsonFpmateOptionsSchema } from './config.js';

/**
 * Epson FP-81 II RT / FP-90III over Fiscal ePOS-Print XML (fpmate.cgi). `create` rejects with
 * CONFIG_INVALID when the TLS CA file cannot be read.
 */
export const epsonFpmateFactory: DriverFactory<EpsonFpmateOptions> = rtDriverFactory({
  kind: 'epson-fpmate',
  family: epsonFamily,
  configSchema: EpsonFpmateOptionsSchema,
  checkpointVersion: CHECKPOINT_VERSION,
  describe: describeOptions,
  simulator: {
    example: 'http://127.0.0.1:8091',
    // An Epson RT serial: two digits, the RT type, two letters, six digits (see last-document.ts).
    serial: (_options, digits) => `99MEY${digits}`,
    what: 'simulated RT printer',
    start: async (where) => (await import('./simulator/index.js')).startFpmateSimulator(where),
  },
});
