import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { platformReader } from '../../../src/agent/platform-reader.js';
import { ManualClock } from '../../../src/clock.js';
import { type Journal, openJournal } from '../../../src/commands/journal/journal.js';
import type { OutboxItem } from '../../../src/commands/journal/outbox-table.js';
import { OutboxDelivery } from '../../../src/commands/outbox/delivery.js';
import { OutboxQueue } from '../../../src/commands/outbox/queue.js';
import { createConnectorClient } from '../../../src/connector/client.js';
import { createMemoryLogger } from '../../../src/log.js';
import { messageRenderer } from '../../../src/messages/render.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../../src/platform-simulator/index.js';
import { eventually } from '../../helpers/eventually.js';

/**
 * Issue 13.1, "delivered means understood": a `200` whose body is not what the operation returns
 * (a captive portal's HTML page, a JSON array, a string) is not a delivery and not a read. The
 * update stays in the outbox and is retried with backoff; a bill read waits and retries.
 */

const PORTAL =
  '<!DOCTYPE html><html><body><form action="/login">Room <input name="room"></form></body></html>';
const TOKENS = { clientToken: 'client-TOKEN-123456', accessToken: 'access-TOKEN-654321' };

interface Rig {
  clock: ManualClock;
  journal: Journal;
  queue: OutboxQueue;
  outbox: OutboxDelivery;
  delivered: OutboxItem[];
  lines: () => string[];
}

function outboxRig(baseUrl: string, tokens = TOKENS): Rig {
  const clock = new ManualClock();
  const journal = openJournal(':memory:', { now: () => clock.now() });
  const log = createMemoryLogger({ secrets: [tokens.clientToken, tokens.accessToken] });
  const connector = createConnectorClient({
    baseUrl,
    ...tokens,
    client: 'frontdesk-agent test',
    clock,
    log,
    // The outbox does the retrying here, so every attempt is one request.
    retries: 0,
  });
  const delivered: OutboxItem[] = [];
  const queue = new OutboxQueue(journal, messageRenderer('en'));
  const outbox = new OutboxDelivery({
    journal,
    queue,
    connector,
    clock,
    log,
    tuning: { backoffBaseMs: 1000, backoffMaxMs: 8000 },
    events: {
      delivered: (items, remove) => {
        for (const item of items) {
          remove(item);
          delivered.push(item);
        }
      },
    },
    judge: { judge: async () => 'ours' },
  });
  return { clock, journal, queue, outbox, delivered, lines: () => log.lines };
}

const pending = (journal: Journal) => journal.outbox.heads(10);
/** The outbox has handled its answer: paused for a retry, or done with the row. */
const settled = (rig: Rig) => rig.outbox.pausedUntilMs !== undefined || pending(rig.journal).length === 0;

describe('outbox: only an understood answer is a delivery (plain local HTTP server)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('keeps the update through an HTML page, a JSON array and a string, and delivers it on {}', async () => {
    const answers: Array<{ type: string; body: string }> = [
      { type: 'text/html; charset=utf-8', body: PORTAL },
      { type: 'application/json', body: '[]' },
      { type: 'application/json', body: '"OK"' },
      { type: 'application/json', body: '{}' },
    ];
    const seen: string[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push(`${req.url} ${JSON.parse(body).State}`);
        const answer = answers.shift() ?? { type: 'application/json', body: '{}' };
        res.writeHead(200, { 'Content-Type': answer.type });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const rig = outboxRig(`http://127.0.0.1:${port}`);
    rig.journal.outbox.add(
      { commandId: 'c1', state: 'Processed', notes: 'Receipt 0012-0034' },
      rig.clock.now(),
    );
    rig.outbox.start();
    rig.queue.wake();

    for (let attempt = 1; attempt <= 3; attempt++) {
      await eventually(
        'seen.length === attempt && settled(rig)',
        () => seen.length === attempt && settled(rig),
      );
      // Not delivered: the row is still there, with one more failed attempt.
      expect(pending(rig.journal)).toMatchObject([
        { commandId: 'c1', state: 'Processed', attempts: attempt },
      ]);
      expect(rig.delivered).toEqual([]);
      expect(rig.outbox.lastError?.code).toBe('RESPONSE_INVALID');
      const wait = (rig.outbox.pausedUntilMs as number) - rig.clock.now();
      // Exponential backoff: 1 s, 2 s, 4 s.
      expect(wait).toBe(1000 * 2 ** (attempt - 1));
      await rig.clock.advance(wait);
    }
    await eventually('rig.delivered.length === 1', () => rig.delivered.length === 1);
    expect(pending(rig.journal)).toEqual([]);
    expect(seen).toEqual(Array(4).fill('/api/connector/v1/commands/update Processed'));
    expect(rig.lines().join('\n')).not.toContain('counted as delivered');
    expect(rig.lines().join('\n')).not.toContain(TOKENS.accessToken);
    await rig.outbox.stop();
    rig.journal.close();
  });
});

describe('against the platform simulator with its captive portal fault', () => {
  let sim: PlatformSimulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  const keysId = 'c0000000-0000-4000-8000-0000000000a1';
  const fiscalId = 'c0000000-0000-4000-8000-0000000000a2';

  async function simulator(): Promise<PlatformSimulator> {
    sim = await startPlatformSimulator({
      scenario: {
        devices: [
          { id: keysId, type: 'KeyCutter', name: 'Encoder', keyCutterId: '7' },
          {
            id: fiscalId,
            type: 'FiscalMachine',
            name: 'RT',
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: '99MEY000001',
          },
        ],
        reservations: { generate: 2 },
      },
    });
    return sim;
  }

  it('an update answered by the portal stays in the outbox until the platform itself takes it', async () => {
    const platform = await simulator();
    const command = platform.createKeys({ deviceId: keysId });
    platform.setFaults({ captivePortal: { next: 2, operations: ['commands/update'] } });
    const rig = outboxRig(platform.url, platform.tokens);
    rig.journal.outbox.add({ commandId: command.id, state: 'Received' }, rig.clock.now());
    rig.outbox.start();
    rig.queue.wake();

    for (let attempt = 1; attempt <= 2; attempt++) {
      await eventually(
        "platform.counters().faults['captive-portal'] === attempt && settled(rig)",
        () => platform.counters().faults['captive-portal'] === attempt && settled(rig),
      );
      expect(platform.command(command.id)?.state).toBe('Pending');
      expect(pending(rig.journal)).toHaveLength(1);
      await rig.clock.advance((rig.outbox.pausedUntilMs as number) - rig.clock.now());
    }
    await eventually('rig.delivered.length === 1', () => rig.delivered.length === 1);
    expect(platform.history(command.id).map((h) => h.state)).toEqual(['Pending', 'Received']);
    const updates = platform.requestLog().filter((r) => r.operation === 'commands/update');
    expect(updates.map((r) => [r.status, r.fault ?? null])).toEqual([
      [200, 'captive-portal'],
      [200, 'captive-portal'],
      [200, null],
    ]);
    await rig.outbox.stop();
    rig.journal.close();
  });

  it('a bill read answered by the portal waits and retries instead of failing the receipt', async () => {
    const platform = await simulator();
    const command = platform.createFiscalData({ deviceId: fiscalId });
    const billId = command.billId as string;
    platform.setFaults({ captivePortal: { next: 2, operations: ['orderItems/getAll'] } });
    const clock = new ManualClock();
    const log = createMemoryLogger();
    const connector = createConnectorClient({
      baseUrl: platform.url,
      ...platform.tokens,
      client: 'frontdesk-agent test',
      clock,
      retries: 0,
    });
    const reading = platformReader(connector, clock, log).orderItems(billId);
    let items: unknown[] | undefined;
    let failure: unknown;
    reading.then(
      (value) => {
        items = value;
      },
      (error: unknown) => {
        failure = error;
      },
    );
    for (let attempt = 1; attempt <= 2; attempt++) {
      await eventually(
        `the captive portal's answer #${attempt} and the retry parked on the clock`,
        () =>
          platform.counters().faults['captive-portal'] === attempt &&
          (clock.pending > 0 || failure !== undefined),
      );
      expect(failure).toBeUndefined();
      expect(items).toBeUndefined();
      await clock.advance(1000 * 2 ** (attempt - 1));
    }
    await eventually(
      'items !== undefined || failure !== undefined',
      () => items !== undefined || failure !== undefined,
    );
    expect(failure).toBeUndefined();
    expect(items?.length).toBeGreaterThan(0);
    expect(log.lines.filter((l) => l.includes('RESPONSE_INVALID'))).toHaveLength(2);
  });
});
