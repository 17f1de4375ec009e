import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal } from '../src/commands/journal/index.js';
import { createConnectorClient } from '../src/connector/index.js';

/**
 * What one `commands/update`-sized POST costs the client's CPU on this machine, by HTTP client:
 * `fetch` (Node's bundled undici, what the naive baseline used until 2026-11-28), `node:http` with a new connection
 * per request, and `node:http` with a keep-alive agent (what our agent uses for the platform). The
 * server runs in its own process, so the figure is the client's alone (`process.cpuUsage`, user +
 * system, GC included). It tells how much of a baseline's CPU per receipt is its HTTP client: the
 * issue's naive baseline spent 3 ms a receipt, the bench's (fetch) about 10.
 *
 * Two more rows give our agent's whole client for the same POST (`createConnectorClient`'s
 * `updateCommand`: the request's check, the rate budget, the retry policy, the timeout, the answer's
 * check), with the budget in memory and with the budget journaled as the daemon runs it (the
 * journal's `rateBudget`, a slot written before the request and settled after it): the difference
 * to `node:http` with keep-alive is what our layers cost a request.
 *
 *   npx tsx bench/http-cost.ts [--requests=2000]
 *
 * A benchmark, not a test: it prints figures and exits 0.
 */

const REQUESTS = Number(process.argv.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 2000);
const WARM_UP = 200;

/** A plain server answering `{}` to every request, in a child process; resolves with its port. */
async function startServer(): Promise<{ port: number; child: ChildProcess }> {
  const source = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end('{}'); });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { port: Number(chunk.toString().trim()), child };
}

/** An update the size of the agent's: tokens, a command id, a state. */
const body = JSON.stringify({
  ClientToken: 'C'.repeat(48),
  AccessToken: 'A'.repeat(48),
  Client: 'bench 1.0',
  CommandId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  State: 'Processing',
});

function viaHttp(port: number, agent: http.Agent | undefined): () => Promise<void> {
  return () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/connector/v1/commands/update',
          ...(agent ? { agent } : {}),
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => {
            JSON.parse(Buffer.concat(parts).toString('utf8'));
            resolve();
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}

function viaFetch(port: number): () => Promise<void> {
  return async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/api/connector/v1/commands/update`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    JSON.parse(await answer.text());
  };
}

/** CPU µs per request of `send`, sequential, after a warm-up. */
async function measure(send: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await send();
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await send();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

/** Our agent's client: `updateCommand`, one command's state, through every layer the daemon uses. */
function viaAgentClient(port: number, journaled: boolean): { send: () => Promise<void>; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'http-cost-'));
  const journal = journaled ? openJournal(join(dir, 'journal.db')) : undefined;
  const client = createConnectorClient({
    baseUrl: `http://127.0.0.1:${port}`,
    clientToken: 'C'.repeat(48),
    accessToken: 'A'.repeat(48),
    client: 'bench 1.0',
    rateLimit: { requests: 1_000_000, windowSeconds: 30 },
    ...(journal ? { budgetStore: journal.rateBudget } : {}),
  });
  return {
    send: () =>
      client.updateCommand({ CommandId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', State: 'Processing' }),
    close: () => {
      journal?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const { port, child } = await startServer();
try {
  const keepAlive = new http.Agent({ keepAlive: true });
  const agentClient = viaAgentClient(port, false);
  const agentJournaled = viaAgentClient(port, true);
  const figures = {
    fetch: await measure(viaFetch(port)),
    httpNewConnection: await measure(viaHttp(port, undefined)),
    httpKeepAlive: await measure(viaHttp(port, keepAlive)),
    agentClient: await measure(agentClient.send),
    agentClientJournaled: await measure(agentJournaled.send),
  };
  keepAlive.destroy();
  agentClient.close();
  agentJournaled.close();
  for (const [client, us] of Object.entries(figures))
    process.stdout.write(`${client.padEnd(22)} ${(us / 1000).toFixed(3)} ms of CPU per request\n`);
} finally {
  child.kill();
}
