import type { DriverFactory } from '../../../src/drivers-api/types.js';
import { FROM_PLATFORM } from './address.js';
import { RtDriver } from './driver.js';
import type { RtFamily, RtLink, RtOptions } from './family.js';

/**
 * A family's registry entry (`drivers/index.ts`): a fiscal machine driven by the kit's driver with
 * the family's parts, at the configured address or — with `url: fromPlatform` — the one each
 * command carries. The family brings its schema, checkpoint version, words and simulator.
 */
export function rtDriverFactory<O extends RtOptions, L extends RtLink, P>(
  spec: Pick<DriverFactory<O>, 'kind' | 'configSchema' | 'checkpointVersion' | 'describe' | 'simulate'> & {
    family: RtFamily<O, L, P>;
  },
): DriverFactory<O> {
  const { family, ...factory } = spec;
  return {
    ...factory,
    deviceType: 'FiscalMachine',
    create: (options, ctx) =>
      new RtDriver(options, ctx, family, options.url === FROM_PLATFORM ? undefined : options.url),
  };
}
