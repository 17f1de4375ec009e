import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { heapBoundAnswerBytes } from '../../src/connector/http-transport.js';

import { shebangLaunch } from '../helpers/node-flags.js';

/**
 * Issue 27, finding 9 (listing answers): the connector read answers of up to 64 MiB, but the
 * agent runs with a 512 MiB heap (`--max-old-space-size=512`, app/main.ts's first line) and
 * `JSON.parse` of a dense answer takes about 8 bytes of heap per byte of text. The review saw a
 * 64 MiB answer crash the agent out of memory, again at every restart (the platform sends the
 * same page). Here, in a child with nothing else alive, the old code parsed it after 54 s of
 * garbage collection at the edge of the heap: the loop blocked the whole time.
 *
 * Now the cap is what the heap can parse (`heapBoundAnswerBytes`: the heap limit / 18). The test
 * runs the agent's own HTTP fetch in a child node with the agent's flags, against an answer just
 * under 64 MiB served on 127.0.0.1, and parses what it gets as the exchange does.
 */

const CHILD = `
import http from 'node:http';
import { createHttpFetch } from './src/connector/http-transport.ts';
const unit = '[0,0,0,0,0,0,0,0],';
const body = Buffer.from('{"Commands":[' + unit.repeat(Math.floor((64 * 1048576 - 64) / unit.length)) + '0]}');
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const fetch = createHttpFetch();
try {
  const answer = await fetch('http://127.0.0.1:' + server.address().port + '/api/connector/v1/commands/getAll', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
  });
  const parsed = JSON.parse(await answer.text());
  console.log('PARSED ' + parsed.Commands.length);
} catch (error) {
  console.log('REFUSED ' + error.code);
}
server.close();
process.exit(0);
`;

describe('a listing answer the heap cannot parse', () => {
  it('is refused as too large under the agent’s own heap, instead of crashing the agent', () => {
    const launch = shebangLaunch('app/main.ts');
    const child = spawnSync(
      process.execPath,
      [...launch.flags, '--import', 'tsx', '--input-type=module', '-e', CHILD],
      { env: { ...process.env, ...launch.env }, encoding: 'utf8', maxBuffer: 1024 * 1024 },
    );
    expect(child.stderr).not.toMatch(/heap out of memory/);
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('REFUSED HTTP_TOO_LARGE');
  });

  it('keeps 64 MiB where the heap holds it, and never less than 8 MiB', () => {
    expect(heapBoundAnswerBytes(512 * 1024 * 1024)).toBe(Math.floor((512 * 1024 * 1024) / 18));
    expect(heapBoundAnswerBytes(4096 * 1024 * 1024)).toBe(64 * 1024 * 1024);
    expect(heapBoundAnswerBytes(64 * 1024 * 1024)).toBe(8 * 1024 * 1024);
  });
});
