import { deviceMessages } from './messages.js';
import type { DeviceStatus } from './types.js';

/**
 * `Driver.status()` must never throw: `read`'s answer, or — when reading the driver's status
 * board fails — a disconnected status that says why, so the page and the metrics still show the
 * device.
 */
export function statusOrUnavailable(read: () => DeviceStatus): DeviceStatus {
  try {
    return read();
  } catch (e) {
    return {
      connected: false,
      summary: deviceMessages.statusUnavailable({ error: (e as Error).message }),
      warnings: [],
      facts: {},
    };
  }
}
