import type { DriverFactory } from '../../src/drivers-api/types.js';
import { type EpsonFpmateOptions, EpsonFpmateOptionsSchema } from './config.js';
import { EpsonFpmateDriver } from './driver.js';

export type { EpsonFpmateOptions } from './config.js';
export { EpsonFpmateOptionsSchema } from './config.js';

/**
 * Epson FP-81 II RT / FP-90III over Fiscal ePOS-Print XML (fpmate.cgi). `create` rejects with
 * CONFIG_INVALID when the TLS CA file cannot be read.
 */
export const epsonFpmateFactory: DriverFactory<EpsonFpmateOptions> = {
  kind: 'epson-fpmate',
  deviceType: 'FiscalMachine',
  configSchema: EpsonFpmateOptionsSchema,
  create: (options, ctx) => new EpsonFpmateDriver(options, ctx),
};
