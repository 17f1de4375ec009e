import { describe, expect, it } from 'vitest';
import { deviceMessages } from '../../src/drivers-api/messages.js';
import { statusOrUnavailable } from '../../src/drivers-api/status.js';
import type { DeviceStatus } from '../../src/drivers-api/types.js';
import { english } from '../../src/messages/render.js';

describe('the one driver-status fallback', () => {
  it("gives the driver's status when it can be read", () => {
    const status: DeviceStatus = {
      connected: true,
      summary: deviceMessages.noRoom(),
      warnings: [],
      facts: { paper: 'ok' },
    };
    expect(statusOrUnavailable(() => status)).toBe(status);
  });

  it('never throws: a failed read is a disconnected status that says why', () => {
    const status = statusOrUnavailable(() => {
      throw new Error('board not ready');
    });
    expect(status).toMatchObject({ connected: false, warnings: [], facts: {} });
    expect(english(status.summary)).toContain('board not ready');
  });
});
