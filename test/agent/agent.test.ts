import { describe, expect, it } from 'vitest';
import { driverRegistry } from '../../drivers/index.js';
import { createAgent } from '../../src/agent/index.js';
import { ManualClock } from '../../src/clock.js';
import { parseConfig } from '../../src/config.js';
import { createMemoryLogger } from '../../src/log.js';

/**
 * The agent is a list of parts (src/agent/agent.ts): started one after another in the list's
 * order, stopped in the reverse order, and a start that fails half-way stops what it began. Seen
 * through the lines each part logs, with a journal in memory, a platform nobody answers on
 * 127.0.0.1:9 and a ManualClock, so no poll comes round again.
 */

const TOKENS = { clientToken: 'client-PARTS-0123456789', accessToken: 'access-PARTS-9876543210' };

function agentWith(status: Record<string, unknown>, statusMetricsToken?: string) {
  const log = createMemoryLogger({ secrets: [TOKENS.clientToken, TOKENS.accessToken] });
  const config = parseConfig({
    version: 1,
    platform: { url: 'http://127.0.0.1:9' },
    journal: { path: ':memory:' },
    status,
    devices: [
      {
        id: 'c0000000-0000-4000-8000-0000000000c1',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: { durationMs: 0 },
      },
    ],
  });
  const agent = createAgent(config, {
    registry: driverRegistry,
    log,
    secrets: TOKENS,
    clock: new ManualClock(Date.UTC(2026, 2, 3, 9)),
    ...(statusMetricsToken ? { statusMetricsToken } : {}),
  });
  /** The index of the first line saying `what`, or -1. */
  const at = (what: string) => log.lines.findIndex((line) => line.includes(what));
  return { agent, at };
}

describe('the agent’s parts', () => {
  it('start in order and stop in reverse: the engine before the page, the page before the engine stops', async () => {
    const { agent, at } = agentWith({ listen: '127.0.0.1:0' });
    const { statusUrl } = await agent.start();
    expect(statusUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(agent.alive()).toBe(true);
    expect(agent.source.snapshot().devices).toHaveLength(1);
    await agent.stop(0);
    const order = [
      'command engine started',
      'status page listening',
      'command engine stopped',
      'agent stopped',
    ];
    expect(order.map(at).every((index) => index >= 0)).toBe(true);
    expect([...order.map(at)].sort((a, b) => a - b)).toEqual(order.map(at));
  });

  it('a start that fails at the page stops the parts it began, the engine included', async () => {
    // An address of no interface of this PC (TEST-NET-3, RFC 5737): the page can never listen there.
    const { agent, at } = agentWith(
      { listen: '203.0.113.7:8720', metricsTokenFile: '/run/credentials/metrics' },
      'metrics-PARTS-token-000',
    );
    await expect(agent.start()).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await agent.stop(0);
    expect(at('command engine started')).toBeGreaterThanOrEqual(0);
    expect(at('command engine stopped')).toBeGreaterThan(at('command engine started'));
    expect(at('agent stopped')).toBeGreaterThan(at('command engine stopped'));
    // Stopping again changes nothing.
    await agent.stop(0);
  });
});
