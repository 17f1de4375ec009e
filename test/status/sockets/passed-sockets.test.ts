import { describe, expect, it } from 'vitest';
import { passedSockets } from '../../../src/status/sockets/passed-sockets.js';

/** sd_listen_fds(3): `LISTEN_PID`, `LISTEN_FDS` from descriptor 3, `LISTEN_FDNAMES`. */
describe('the sockets systemd passes', () => {
  it('are for this process only, numbered from 3, the page first unless names say otherwise', () => {
    expect(passedSockets({}, 42)).toBeUndefined();
    expect(passedSockets({ LISTEN_PID: '41', LISTEN_FDS: '2' }, 42)).toBeUndefined();
    expect(passedSockets({ LISTEN_PID: '42', LISTEN_FDS: '0' }, 42)).toBeUndefined();
    expect(passedSockets({ LISTEN_PID: '42', LISTEN_FDS: 'x' }, 42)).toBeUndefined();
    // One socket unit names all its sockets alike: the order of its Listen lines decides.
    expect(
      passedSockets(
        {
          LISTEN_PID: '42',
          LISTEN_FDS: '2',
          LISTEN_FDNAMES: 'frontdesk-agent.socket:frontdesk-agent.socket',
        },
        42,
      ),
    ).toEqual({ status: 3, staff: 4 });
    expect(passedSockets({ LISTEN_PID: '42', LISTEN_FDS: '1' }, 42)).toEqual({ status: 3 });
    expect(passedSockets({ LISTEN_PID: '42', LISTEN_FDS: '2', LISTEN_FDNAMES: 'staff:status' }, 42)).toEqual({
      status: 4,
      staff: 3,
    });
  });
});
