import { afterEach } from 'vitest';
import type { NormalizedItem } from '../../src/connector/model.js';
import {
  type PlatformSimulator,
  type PlatformSimulatorOptions,
  startPlatformSimulator,
} from '../../src/platform-simulator/index.js';

/** Helpers for the simulator's own tests: plain `fetch`, never the agent's client. */

const running: PlatformSimulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

/** Starts a simulator on 127.0.0.1:0 that is closed after the current test. */
export async function startSim(options: PlatformSimulatorOptions = {}): Promise<PlatformSimulator> {
  const sim = await startPlatformSimulator({
    ...options,
    scenario: { reservations: { generate: 6 }, ...options.scenario },
  });
  running.push(sim);
  return sim;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Tokens and Client as a body prefix. */
export function auth(sim: PlatformSimulator): Record<string, string> {
  return {
    ClientToken: sim.tokens.clientToken,
    AccessToken: sim.tokens.accessToken,
    Client: 'simulator-tests 1.0.0',
  };
}

/** POSTs a Connector API operation with the simulator's tokens (unless `raw`). */
export async function call(
  sim: PlatformSimulator,
  operation: string,
  body: Record<string, unknown> = {},
  init: { raw?: boolean; signal?: AbortSignal } = {},
): Promise<Answer> {
  const res = await fetch(`${sim.url}/api/connector/v1/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(init.raw ? body : { ...auth(sim), ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

export async function admin(
  sim: PlatformSimulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sim.url}/_sim/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * The base64 document of a normalized fiscal payload command (the file the printer is sent as
 * is); throws when the item did not normalize to one.
 */
export function payloadBase64(item: NormalizedItem): string {
  if (
    !item.ok ||
    item.command.data.kind !== 'fiscal' ||
    item.command.data.fiscal.document.type !== 'payload'
  ) {
    throw new Error('not a fiscal payload command');
  }
  return item.command.data.fiscal.document.base64;
}

/** Every key path of a JSON value; arrays become `[]`, so items of one array share paths. */
export function keyPaths(value: unknown, prefix = ''): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const item of v) walk(item, `${path}[]`);
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const p = path ? `${path}.${key}` : key;
        out.add(p);
        walk(child, p);
      }
    }
  };
  walk(value, prefix);
  return out;
}

/**
 * The fixture's key paths the sample lacks. A path below a key the sample holds as `null`
 * (where the fixture had an object) is not missing: the object is legitimately absent.
 */
export function missingKeys(fixture: unknown, sample: unknown): string[] {
  const have = keyPaths(sample);
  const nullAt = new Set<string>();
  const findNulls = (v: unknown, path: string) => {
    if (Array.isArray(v)) for (const item of v) findNulls(item, `${path}[]`);
    else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        const p = path ? `${path}.${key}` : key;
        if (child === null) nullAt.add(p);
        findNulls(child, p);
      }
    }
  };
  findNulls(sample, '');
  return [...keyPaths(fixture)].filter(
    (p) => !have.has(p) && ![...nullAt].some((n) => p.startsWith(`${n}.`) || p.startsWith(`${n}[]`)),
  );
}
