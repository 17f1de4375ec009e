import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAgentError } from '../errors.js';

/** Bodies above this are refused (400) before parsing. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads the whole body; resolves undefined when it exceeds `MAX_BODY_BYTES` or the peer aborts. */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooBig ? undefined : Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
    req.on('aborted', () => resolve(undefined));
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The HTTP status a thrown rejection asks for (`details.status`), else 500. */
export function statusOf(error: unknown): number {
  if (isAgentError(error) && typeof error.details.status === 'number') return error.details.status;
  return 500;
}

/** The path of a request URL without its query string. */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
