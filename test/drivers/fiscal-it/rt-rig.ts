import type { DriverFactory } from '../../../src/drivers-api/types.js';
import { driversOn, QUICK_RT, type RigContext } from '../../helpers/driver-context.js';

/** What an RT family's test rig is made of: its simulator, the driver's options, the drivers on them. */
export type RtRig<S, C> = { sim: S; options: C } & ReturnType<typeof driversOn>;

/**
 * An RT family's simulated printer (serial `serial`) and its driver on it, with the quick test
 * options (QUICK_RT) under `o.driver`: the options are read first, so that `start` can program
 * the simulator as they expect, then pointed at the simulator's address.
 */
export async function rtRig<S extends { url: string; close(): Promise<void> }, C extends { url: string }>(
  factory: DriverFactory<C>,
  serial: string,
  start: (options: C) => Promise<S>,
  o: RigContext & { driver?: Record<string, unknown> },
): Promise<RtRig<S, C>> {
  const options = factory.configSchema.parse({
    url: 'http://127.0.0.1:1',
    serialNumber: serial,
    ...QUICK_RT,
    ...o.driver,
  });
  const sim = await start(options);
  options.url = sim.url;
  return { sim, options, ...driversOn(factory, options, o, sim) };
}
