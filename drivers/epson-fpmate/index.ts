import type { DriverFactory } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
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
  simulate: async (options, device) => {
    const address = options.url ? new URL(options.url) : undefined;
    if (address?.protocol !== 'http:' || !isLoopbackHost(address.hostname) || !address.port) {
      throw new AgentError(
        'CONFIG_INVALID',
        `${device.name}: a simulated printer needs options.url like http://127.0.0.1:8091`,
      );
    }
    const { startFpmateSimulator } = await import('./simulator.js');
    const serial = `99MEY${device.id
      .replace(/[^0-9A-Za-z]/g, '')
      .slice(-6)
      .toUpperCase()}`;
    const printer = await startFpmateSimulator({
      host: address.hostname,
      port: Number(address.port),
      serial,
    });
    return { description: `simulated RT printer ${serial} at ${printer.url}`, close: () => printer.close() };
  },
};

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || /^127\./.test(host);
}
