import { describe, expect, it } from 'vitest';
import { platformReader } from '../../src/agent/platform-reader.js';
import type { Clock } from '../../src/clock.js';
import type { ConnectorApi } from '../../src/connector/api.js';
import type { WireOrderItem } from '../../src/connector/wire.js';
import { AgentError } from '../../src/errors.js';
import { silentLogger } from '../../src/log.js';

/** A clock whose sleeps end at once but are recorded. */
function instantClock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => 0,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
    },
  };
}

const item = { Id: 'i1', UnitCount: 1 } as unknown as WireOrderItem;

function connectorFailing(failures: AgentError[]): ConnectorApi & { calls: number } {
  const api = {
    calls: 0,
    async *orderItems() {
      api.calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      yield [item];
    },
  };
  return api as unknown as ConnectorApi & { calls: number };
}

describe('platformReader', () => {
  it('waits through a platform outage and then returns the bill lines', async () => {
    const connector = connectorFailing([
      new AgentError('PLATFORM_ERROR', '503'),
      new AgentError('PLATFORM_UNREACHABLE', 'reset'),
      new AgentError('PLATFORM_TIMEOUT', 'slow'),
    ]);
    const clock = instantClock();
    const items = await platformReader(connector, clock, silentLogger).orderItems('bill-1');
    expect(items).toEqual([item]);
    expect(connector.calls).toBe(4);
    expect(clock.slept).toEqual([1000, 2000, 4000]);
  });

  it('fails at once on an error that waiting cannot fix', async () => {
    const connector = connectorFailing([new AgentError('PLATFORM_AUTH', '401')]);
    await expect(
      platformReader(connector, instantClock(), silentLogger).orderItems('bill-1'),
    ).rejects.toMatchObject({
      code: 'PLATFORM_AUTH',
    });
    expect(connector.calls).toBe(1);
  });

  it('stops waiting when the job is aborted', async () => {
    const abort = new AbortController();
    const connector = connectorFailing([new AgentError('PLATFORM_ERROR', '503')]);
    abort.abort(new AgentError('ABORTED', 'cancelled'));
    await expect(
      platformReader(connector, instantClock(), silentLogger).orderItems('bill-1', abort.signal),
    ).rejects.toMatchObject({ code: 'PLATFORM_ERROR' });
  });
});
