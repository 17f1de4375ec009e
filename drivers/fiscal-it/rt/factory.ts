import type { DriverFactory } from '../../../src/drivers-api/types.js';
import { FROM_PLATFORM } from './address.js';
import { RtDriver } from './driver.js';
import type { RtFamily, RtLink, RtOptions } from './family.js';
import { type SimulatedPrinterStart, simulatedSerialDigits, startSimulatedPrinter } from './simulated.js';

/** How a family's printer is simulated for `npm start`, doctor's demo and the tests. */
export interface RtSimulatorSpec<O> {
  /** The address to write when `url` is not a loopback `http://` address with a port. */
  example: string;
  /** The simulated printer's serial, given six digits that stay the same for a device id. */
  serial(options: O, digits: string): string;
  /** Its name in the log: "simulated Custom RT printer". */
  what: string;
  /** Loads the family's simulator (a dynamic import: only when simulated) and starts it. */
  start: (where: Parameters<SimulatedPrinterStart>[0], options: O) => ReturnType<SimulatedPrinterStart>;
}

/**
 * A family's registry entry (`drivers/index.ts`): a fiscal machine driven by the kit's driver with
 * the family's parts, at the configured address or — with `url: fromPlatform` — the one each
 * command carries. The family brings its schema, checkpoint version, words and simulator, which
 * the kit starts at the configured loopback address (`startSimulatedPrinter`).
 */
export function rtDriverFactory<O extends RtOptions, L extends RtLink, P>(
  spec: Pick<DriverFactory<O>, 'kind' | 'configSchema' | 'checkpointVersion' | 'describe'> & {
    family: RtFamily<O, L, P>;
    simulator: RtSimulatorSpec<O>;
  },
): DriverFactory<O> {
  const { family, simulator, ...factory } = spec;
  return {
    ...factory,
    deviceType: 'FiscalMachine',
    create: (options, ctx) =>
      new RtDriver(options, ctx, family, options.url === FROM_PLATFORM ? undefined : options.url),
    simulate: (options, device) =>
      startSimulatedPrinter(
        {
          url: options.url,
          device,
          example: simulator.example,
          serial: simulator.serial(options, simulatedSerialDigits(device.id)),
          what: simulator.what,
        },
        (where) => simulator.start(where, options),
      ),
  };
}
