import { createHash } from 'node:crypto';
import type { DriverFactory } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { isLoopback } from '../../src/loopback.js';
import { type CustomRtOptions, CustomRtOptionsSchema, FROM_PLATFORM } from './config.js';
import { describeOptions } from './describe.js';
import { CustomRtDriver } from './driver.js';
import { CHECKPOINT_VERSION } from './recovery.js';

export type { CustomRtOptions } from './config.js';
export { CustomRtOptionsSchema } from './config.js';

/** Custom RT printers (KUBEX, Q3X, K3, BIG PLUS, VKP80III, P3, FUSION, EDGE) over the XML protocol. */
export const customRtFactory: DriverFactory<CustomRtOptions> = {
  kind: 'custom-rt',
  deviceType: 'FiscalMachine',
  configSchema: CustomRtOptionsSchema,
  checkpointVersion: CHECKPOINT_VERSION,
  create: (options, ctx) => new CustomRtDriver(options, ctx),
  describe: describeOptions,
  simulate: async (options, device) => {
    const address = options.url === FROM_PLATFORM ? undefined : new URL(options.url);
    if (address?.protocol !== 'http:' || !isLoopback(address.hostname) || !address.port) {
      throw new AgentError(
        'CONFIG_INVALID',
        `${device.name}: a simulated printer needs options.url like http://127.0.0.1:8092`,
      );
    }
    const { startCustomRtSimulator } = await import('./simulator/index.js');
    // A Custom serial: two letters of the approval, two of the maker, a letter and six digits (STMTE501091).
    const digits =
      BigInt(`0x${createHash('sha256').update(device.id).digest('hex').slice(0, 12)}`) % 1_000_000n;
    const serial = options.serialNumber ?? `STMTE${String(digits).padStart(6, '0')}`;
    const printer = await startCustomRtSimulator({
      host: address.hostname,
      port: Number(address.port),
      serial,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    return {
      description: `simulated Custom RT printer ${serial} at ${printer.url}`,
      close: () => printer.close(),
    };
  },
};
