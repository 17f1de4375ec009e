import { AgentError } from '../errors.js';

/**
 * Why demo mode cannot simulate a device as it is configured (`DriverFactory.simulate`): CONFIG_INVALID
 * naming the device, with `needs` saying what its options must be — a device simulator listens on
 * this PC only, so options that point elsewhere are a mistake in the demo's configuration, not a
 * fault to retry.
 */
export function cannotSimulate(device: { name: string }, needs: string): AgentError {
  return new AgentError('CONFIG_INVALID', `${device.name}: ${needs}`);
}
