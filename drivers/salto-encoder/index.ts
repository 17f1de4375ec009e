import { cannotSimulate } from '../../src/drivers-api/simulation.js';
import type { DriverFactory } from '../../src/drivers-api/types.js';
import { isLoopback } from '../../src/loopback.js';
import { type SaltoEncoderOptions, SaltoEncoderOptionsSchema } from './config.js';
import { SaltoEncoderDriver } from './driver.js';

/**
 * Key-card encoders speaking the PMS industry-standard protocol (Salto and compatibles) over a
 * serial line, a lock server's TCP port or a CP2110 USB HID bridge. See README.md for wiring and
 * every option.
 */
export const saltoEncoderFactory: DriverFactory<SaltoEncoderOptions> = {
  kind: 'salto-encoder',
  deviceType: 'KeyCutter',
  configSchema: SaltoEncoderOptionsSchema,
  create: (options, ctx) => new SaltoEncoderDriver(options, ctx),
  simulate: async (options, device) => {
    if (options.transport !== 'tcp' || !options.host || !isLoopback(options.host)) {
      throw cannotSimulate(
        device,
        `a simulated encoder needs transport tcp on a loopback host, e.g. 127.0.0.1:9100`,
      );
    }
    // The simulator is loaded only in simulate mode: an agent driving a real encoder never holds it.
    const { EncoderSimulator, startEncoderTcpServer } = await import('./simulator/index.js');
    const sim = new EncoderSimulator({ log: device.log });
    const server = await startEncoderTcpServer(sim, { host: options.host, port: options.port ?? 0 });
    return {
      description: `simulated encoder at tcp://${options.host}:${server.port}`,
      close: () => server.close(),
    };
  },
};

export type { SaltoEncoderOptions } from './config.js';
export { SaltoEncoderOptionsSchema } from './config.js';
export type { EncodedCard, EncoderBehaviour, EncoderSimulatorOptions } from './simulator/index.js';
