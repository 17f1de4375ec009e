import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driverRegistry } from '../../drivers/index.js';
import { type Agent, createAgent } from '../../src/agent/index.js';
import { staffRequest } from '../../src/cli/staff-link.js';
import { ManualClock } from '../../src/clock.js';
import { parseConfig } from '../../src/config.js';
import { createMemoryLogger } from '../../src/log.js';
import { eventually } from '../helpers/eventually.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

/**
 * The whole agent (one simulated encoder) on a ManualClock against a platform a test writes as
 * one request handler on 127.0.0.1:0 — for what the agent shows on `/healthz`, the page and
 * `/metrics` when the platform misbehaves in one particular way.
 */

export const LOCAL_TOKENS = {
  clientToken: 'client-LOCAL-0123456789',
  accessToken: 'access-LOCAL-9876543210',
};

export interface LocalPlatformAgent {
  agent: Agent;
  clock: ManualClock;
  log: ReturnType<typeof createMemoryLogger>;
  /** GET on the status server. */
  get(path: string): Promise<{ status: number; text: string }>;
  /** The `/healthz` reasons that `keep` selects (other reasons, a loaded machine's lag, come and go). */
  healthReasons(keep: (reason: string) => boolean): Promise<string[]>;
  /**
   * Moves the clock a second at a time until `condition` holds. Each step waits until every
   * request the platform received has been answered and taken in by the agent (the connector's
   * `connector exchange` record, logged at debug), so the clock never runs ahead of a round still on the wire however slow the machine
   * is. Fails when `maxMs` of clock time pass first.
   */
  stepUntil(condition: () => boolean, maxMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the platform (`handle` answers each request; `operation` is the path after
 * `/api/connector/v1/`, the body already read) and the agent with `poll` options.
 */
export async function startLocalPlatformAgent(
  handle: (operation: string, res: ServerResponse, req: IncomingMessage) => void,
  options: { poll?: Record<string, unknown>; listen?: string } = {},
): Promise<LocalPlatformAgent> {
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => handle((req.url ?? '').replace('/api/connector/v1/', ''), res, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), 'fd-local-platform-'));
  const config = parseConfig({
    version: 1,
    // These tests read the page and /healthz in English.
    locale: 'en',
    platform: { url: `http://127.0.0.1:${port}` },
    ...(options.poll ? { poll: options.poll } : {}),
    journal: { path: join(dir, 'journal.db') },
    status: { listen: options.listen ?? '127.0.0.1:0' },
    devices: [
      {
        id: 'c0000000-0000-4000-8000-0000000000c1',
        type: 'KeyCutter',
        driver: 'sim-encoder',
        options: { durationMs: 0 },
      },
    ],
  });
  const clock = new ManualClock(Date.UTC(2026, 2, 3, 9, 0, 0));
  const log = createMemoryLogger({ secrets: [LOCAL_TOKENS.clientToken, LOCAL_TOKENS.accessToken] });
  const staffSocket = join(dir, 'staff.sock');
  const agent = createAgent(config, {
    registry: driverRegistry,
    log,
    secrets: LOCAL_TOKENS,
    clock,
    staffSocket,
  });
  await agent.start();
  // As staff on this PC would: through the staff socket, the kernel telling the agent who asks.
  const get = async (path: string) => {
    const response = await staffRequest(staffSocket, 'frontdesk-staff', {
      method: 'GET',
      path,
      timeoutMs: 10_000,
      maxBytes: 16 * 1024 * 1024,
    });
    return { status: response.status, text: response.body.toString('utf8') };
  };
  return {
    agent,
    clock,
    log,
    get,
    async healthReasons(keep) {
      const health = await get('/healthz');
      const reasons: string[] = health.status === 200 ? [] : JSON.parse(health.text).reasons;
      return reasons.filter(keep);
    },
    async stepUntil(condition, maxMs) {
      const taken = () => log.lines.filter((line) => line.includes('connector exchange')).length;
      for (let t = 0; ; t += 1000) {
        // What the last step woke reaches the platform within a few turns of the event loop.
        await letPendingWorkRun();
        await eventually(
          () => `the agent to take in the platform's answers (${taken()} of ${received})`,
          () => taken() >= received,
          { intervalMs: 1 },
        );
        if (condition()) return;
        if (t > maxMs) throw new Error(`condition not reached within ${maxMs} ms of clock time`);
        await clock.advance(1000);
      }
    },
    async close() {
      await agent.stop(0);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
