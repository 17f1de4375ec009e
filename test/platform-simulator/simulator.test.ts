import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { normalizeCommand } from '../../src/connector/model.js';
import { startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';
import { call, startSim } from './support.js';

describe('simulator lifecycle', () => {
  it('listens on 127.0.0.1 with a free port and exposes its addresses and tokens', async () => {
    const sim = await startSim();
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.wsUrl).toBe(`${sim.url.replace('http:', 'ws:')}/ws/connector`);
    expect(sim.tokens.clientToken).toMatch(/^[0-9A-F-]{40,}$/);
    expect(sim.tokens.accessToken).not.toBe(sim.tokens.clientToken);
    const other = await fetch(`${sim.url}/somewhere`);
    expect(other.status).toBe(404);
    expect(other.headers.get('request-id')).toBeTruthy();
  });

  it('closes with open WebSockets and hanging requests, idempotently', async () => {
    const sim = await startPlatformSimulator();
    const ws = new WebSocket(sim.wsUrl, {
      headers: { Cookie: `ClientToken=${sim.tokens.clientToken}; AccessToken=${sim.tokens.accessToken}` },
    });
    await new Promise((resolve) => ws.once('open', resolve));
    let closed = false;
    ws.on('close', () => {
      closed = true;
    });
    sim.setFaults({ hangs: { next: 1 } });
    const hanging = call(sim, 'devices/getAll').then(
      () => 'answered',
      () => 'failed',
    );
    await eventually('the hang', () => sim.counters().faults.hang === 1);
    await Promise.all([sim.close(), sim.close()]);
    expect(await hanging).toBe('failed');
    await eventually('the socket to close', () => closed);
    await expect(fetch(`${sim.url}/api/connector/v1/devices/getAll`, { method: 'POST' })).rejects.toThrow();
  });

  it('rejects with PLATFORM_UNREACHABLE when the port is taken, CONFIG_INVALID for a bad scenario', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    await expect(startPlatformSimulator({ port })).rejects.toMatchObject({ code: 'PLATFORM_UNREACHABLE' });
    await new Promise((resolve) => blocker.close(resolve));
    await expect(startPlatformSimulator({ scenario: { generator: { rate: -1 } } })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });

  it('serves payment-terminal commands, which the agent treats as not its own', async () => {
    const sim = await startSim({
      scenario: { devices: [{ id: 'pt', type: 'PaymentTerminal', name: 'Terminal' }] },
    });
    const command = sim.createPaymentTerminal();
    const answer = await call(sim, 'commands/getAllActive');
    const [item] = (answer.body.Commands as unknown[]).map(normalizeCommand);
    expect(item?.ok && item.command.id === command.id && item.command.data).toEqual({
      kind: 'other',
      deviceType: 'PaymentTerminal',
    });
  });
});
