import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';
import { type FakeNotifySocket, fakeNotifySocket } from '../supervision/notify-socket.js';

/**
 * Issue 13.2, the process-level guard, on the real daemon (`node --import tsx app/main.ts run`
 * under a fake systemd: `$NOTIFY_SOCKET` and `WATCHDOG_USEC`). A preloaded fixture throws inside
 * a timer callback and leaves a promise rejection unhandled, as a bug in a handler would. The
 * daemon keeps running and working, logs each as one line without the token, `/healthz` says
 * why it is unhealthy, and when it keeps happening the watchdog stops being fed so that systemd
 * restarts it.
 */

const root = join(import.meta.dirname, '..', '..');
const fixture = join(root, 'test', 'fixtures', 'process-guard', 'trigger.mjs');
const TOKENS = { clientToken: 'GUARD-CLIENT-TOKEN-000111', accessToken: 'GUARD-ACCESS-TOKEN-222333' };
const KEYS = 'a0a0a0a0-0000-4000-8000-000000000001';

describe('the daemon under errors that escape every handler', () => {
  let sim: PlatformSimulator;
  let notify: FakeNotifySocket;
  let child: ChildProcess;
  let dir: string;
  const lines: string[] = [];
  let statusUrl = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    sim = await startPlatformSimulator({
      scenario: {
        platform: { ...TOKENS },
        devices: [{ id: KEYS, type: 'KeyCutter', name: 'Encoder', keyCutterId: '1' }],
        reservations: { generate: 2 },
        generator: { autostart: false, rate: 0 },
      },
    });
    notify = fakeNotifySocket();
    dir = mkdtempSync(join(tmpdir(), 'fd-guard-'));
    const configPath = join(dir, 'agent.yaml');
    writeFileSync(
      configPath,
      stringify({
        version: 1,
        platform: { url: sim.url, websocketUrl: sim.wsUrl },
        poll: { intervalMs: 500, safetyNetMs: 5000 },
        journal: { path: join(dir, 'journal.db') },
        status: { listen: '127.0.0.1:0' },
        devices: [{ id: KEYS, type: 'KeyCutter', driver: 'sim-encoder', options: { durationMs: 5 } }],
      }),
    );
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', fixture, 'app/main.ts', 'run', '--config', configPath],
      {
        cwd: root,
        env: {
          ...process.env,
          FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken,
          FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken,
          FRONTDESK_TEST_TRIGGER: join(dir, 'trigger'),
          NOTIFY_SOCKET: notify.path,
          // Pings every 5 s; a ping is withheld for lag only beyond 2.5 s, which load does not reach.
          WATCHDOG_USEC: '10000000',
          JOURNAL_STREAM: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let buffer = '';
    const onChunk = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const text = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(text);
        statusUrl ||= /status page at (http:\/\/[\d.:]+)/.exec(text)?.[1] ?? '';
      }
    };
    child.stdout?.on('data', onChunk);
    child.stderr?.on('data', onChunk);
    await eventually('READY=1 and WATCHDOG=1 on the notify socket', () => {
      const m = notify.messages;
      return m.some((x) => x.includes('READY=1')) && m.some((x) => x.includes('WATCHDOG=1'));
    });
    await eventually("statusUrl !== ''", () => statusUrl !== '');
  });

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    notify.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const escapedLines = () => lines.filter((l) => l.includes('an error escaped every handler'));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const trigger = () => writeFileSync(join(dir, 'trigger'), '');

  it('logs an escaped exception and rejection as one line each, keeps working, and says so on /healthz', async () => {
    trigger();
    await eventually(
      'escapedLines().length === 2 || !alive()',
      () => escapedLines().length === 2 || !alive(),
    );
    expect(alive()).toBe(true);
    const [a, b] = escapedLines();
    expect([a, b].map((l) => /origin=(\w+)/.exec(l ?? '')?.[1]).sort()).toEqual([
      'uncaughtException',
      'unhandledRejection',
    ]);
    for (const line of [a, b]) {
      expect(line).toContain('code=INTERNAL');
      expect(line).toContain('token [redacted]');
    }
    expect(escapedLines().find((l) => l.includes('timer'))).toContain('second line');
    expect(lines.join('\n')).not.toContain(TOKENS.accessToken);
    expect(lines.some((l) => /^\s+at /.test(l))).toBe(false);

    const health = await fetch(`${statusUrl}/healthz`);
    expect(health.status).toBe(503);
    const { reasons } = (await health.json()) as { reasons: string[] };
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^an unexpected error escaped .* 2 in the last 10 min$/),
      ]),
    );

    // Not a silent stall: a command still goes through to Processed.
    const reservation = sim.world.reservations[0];
    const command = sim.createKeys({
      deviceId: KEYS,
      ...(reservation ? { reservationId: reservation.id } : {}),
    });
    await eventually(
      "sim.command(command.id)?.state === 'Processed' || !alive()",
      () => sim.command(command.id)?.state === 'Processed' || !alive(),
    );
    expect(sim.command(command.id)?.state).toBe('Processed');
  });

  it('when it keeps happening, stops feeding the watchdog so that systemd restarts it', async () => {
    const pings = notify.messages.filter((m) => m.includes('WATCHDOG=1')).length;
    expect(pings).toBeGreaterThan(0);
    trigger();
    const withheld = (l: string) => l.includes('watchdog ping withheld') && l.includes('agent unhealthy');
    await eventually('lines.some(withheld) || !alive()', () => lines.some(withheld) || !alive());
    expect(lines.some(withheld)).toBe(true);
    expect(lines.some((l) => l.includes('errors keep escaping'))).toBe(true);
    expect(alive()).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
