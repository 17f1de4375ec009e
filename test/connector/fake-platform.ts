import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FetchLike } from '../../src/connector/index.js';

/**
 * The connector client's HTTP-level doubles: the documented samples and a `fetch` that answers
 * whatever each test scripts (a 408, a 429 with Retry-After, a broken body, a cursor echoed back),
 * which no faithful platform would do on demand. It keeps no platform state and decides no
 * platform rule; a test that needs a platform uses the simulator (`against-simulator.test.ts`),
 * and the engine's in-memory platform is proved equal to it in
 * `test/commands/helpers/fake-platform.contract.test.ts`.
 */

/** The platform's documented samples, copied verbatim into the repository. */
export const FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures', 'connector-docs');

/** The sample files (the folder's biome.json only keeps the formatter off the verbatim copies). */
export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json') && f !== 'biome.json');
}

export function loadFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8')) as Record<string, unknown>;
}

/** Tokens of the docs' samples; requests built with them compare 1:1 with the fixtures. */
export const SAMPLE = {
  clientToken: 'E0D439EE522F44368DC78E1BFB03710C-D24FB11DBE31D4621C4817E028D9E1D',
  accessToken: 'C66EF7B239D24632943D115EDE9CB810-EA00F8FD8294692C940F6B5A8F9453D',
  client: 'Sample Client 1.0.0',
} as const;

export const BASE_URL = 'https://platform.test';

/** One request as the fake platform saw it. */
export interface SeenRequest {
  url: string;
  /** `group/operation` taken from the URL. */
  operation: string;
  method: string;
  contentType: string | null;
  body: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

export type Responder = (request: SeenRequest, index: number) => Response | Promise<Response>;

/** A `fetch` double that records every request and answers through `respond`. */
export function recordingFetch(respond: Responder): { fetch: FetchLike; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request: SeenRequest = {
      url,
      operation: url.split('/api/connector/v1/')[1] ?? '',
      method: init.method ?? 'GET',
      contentType: new Headers(init.headers).get('Content-Type'),
      body: JSON.parse(String(init.body)) as Record<string, unknown>,
      signal: init.signal ?? undefined,
    };
    seen.push(request);
    return respond(request, seen.length - 1);
  };
  return { fetch, seen };
}

/** A JSON response with a `Request-Id` header (as every platform answer has). */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': `req-${status}`, ...headers },
  });
}
