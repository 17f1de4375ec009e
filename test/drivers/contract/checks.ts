import { createServer, type Socket } from 'node:net';
import { expect } from 'vitest';
import type { DeviceStatus, Driver, Job, JobResult } from '../../../src/drivers-api/types.js';
import { type AgentError, isAgentError } from '../../../src/errors.js';
import { isMessage } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';

/** Reads `status()`, failing the test with the error when it throws. */
export function statusOf(driver: Driver, when: string): DeviceStatus {
  let status: DeviceStatus;
  try {
    status = driver.status();
  } catch (error) {
    throw new Error(`status() threw ${when}: ${String(error)}`);
  }
  expectWellFormed(status, when);
  return status;
}

/** The `DeviceStatus` shape the page, `/metrics` and doctor rely on, and JSON-safe. */
export function expectWellFormed(status: DeviceStatus, when: string): void {
  const where = `status ${when}`;
  expect(typeof status.connected, `${where}: connected`).toBe('boolean');
  expect(english(status.summary).trim(), `${where}: summary`).not.toBe('');
  expect(Array.isArray(status.warnings), `${where}: warnings`).toBe(true);
  for (const warning of status.warnings) {
    expect(english(warning).trim(), `${where}: warning ${JSON.stringify(warning)}`).not.toBe('');
  }
  if (status.lastContact !== undefined) {
    expect(Number.isFinite(status.lastContact), `${where}: lastContact`).toBe(true);
  }
  expect(Object.getPrototypeOf(status.facts), `${where}: facts is a plain object`).toBe(Object.prototype);
  for (const [key, value] of Object.entries(status.facts)) {
    const flat =
      value === null ||
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      isMessage(value) ||
      (typeof value === 'number' && Number.isFinite(value));
    expect(flat, `${where}: fact ${key} = ${String(value)}`).toBe(true);
  }
  expect(JSON.parse(JSON.stringify(status)), `${where}: JSON round trip`).toEqual(status);
}

export type Outcome =
  | { ok: true; result: JobResult; checkpoints: unknown[] }
  | { ok: false; error: AgentError; checkpoints: unknown[] };

/** Runs a job to its end; `ctx.checkpoints` are what the journal would hold, in order. */
export async function execute(
  driver: Driver,
  job: Job,
  ctx: ReturnType<typeof recordingExecuteContext> = recordingExecuteContext(),
): Promise<Outcome> {
  try {
    const result = await driver.execute(job, ctx);
    return { ok: true, result, checkpoints: ctx.checkpoints };
  } catch (error) {
    if (!isAgentError(error)) throw new Error(`execute rejected with a non-AgentError: ${String(error)}`);
    return { ok: false, error, checkpoints: ctx.checkpoints };
  }
}

/** Rejects unless `promise` rejects with an AgentError; resolves with it. */
export async function rejection(promise: Promise<unknown>, what: string): Promise<AgentError> {
  const settled = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in settled)) throw new Error(`${what} resolved; it should have rejected`);
  if (!isAgentError(settled.error))
    throw new Error(`${what} rejected with a non-AgentError: ${String(settled.error)}`);
  return settled.error;
}

/** One value of another JSON type than `value` has. */
function otherType(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value === '' ? 0 : 7;
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 0;
  if (Array.isArray(value)) return 'list';
  return 42;
}

/**
 * Checkpoints no driver wrote: not an object at all, the wrong shape, and — from each checkpoint
 * the driver really stored — one variant per top-level field with that field's value of another
 * JSON type. Every one of them must read as unknown: a checkpoint exists, so the device may have
 * acted, and what the driver noted cannot be read.
 */
export function corruptCheckpoints(stored: unknown[]): Array<{ label: string; value: unknown }> {
  const out: Array<{ label: string; value: unknown }> = [
    { label: 'null', value: null },
    { label: 'a string', value: 'garbage' },
    { label: 'a number', value: 42 },
    { label: 'a boolean', value: true },
    { label: 'an array', value: [] },
    { label: 'an empty object', value: {} },
    { label: 'an object of another shape', value: { unexpected: 'shape', count: -1 } },
  ];
  const seen = new Set<string>();
  for (const checkpoint of stored) {
    if (checkpoint === null || typeof checkpoint !== 'object' || Array.isArray(checkpoint)) continue;
    for (const key of Object.keys(checkpoint)) {
      const value = { ...(checkpoint as Record<string, unknown>) };
      value[key] = otherType(value[key]);
      const text = JSON.stringify(value);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ label: `${JSON.stringify(checkpoint)} with ${key} of another type`, value });
    }
  }
  return out;
}

/** A loopback TCP server that accepts every connection and never answers. */
export async function startSilentServer(): Promise<{
  port: number;
  asked: Promise<void>;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let heard: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', () => heard());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
