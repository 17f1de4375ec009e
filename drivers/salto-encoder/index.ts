import type { DriverFactory } from '../../src/drivers-api/types.js';
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
};

export type { SaltoEncoderOptions } from './config.js';
export { SaltoEncoderOptionsSchema } from './config.js';
export type { EncodedCard, EncoderBehaviour, EncoderSimulatorOptions } from './simulator.js';
export { EncoderSimulator } from './simulator.js';
export { startEncoderTcpServer } from './simulator-tcp.js';
