import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { textMessage } from '../../../src/messages/message.js';
import {
  type RunningStatusServer,
  type StartStatusServerOptions,
  startStatusServer,
} from '../../../src/status/start.js';
import { FakeSource, XSS } from '../helpers/fake-source.js';
import { loginCookie } from '../helpers/staff-login.js';

interface SseMessage {
  event: string;
  data: string;
}

/** Reads an SSE response into messages; `next(pred)` resolves with the first match. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: SseMessage[] = [];
  const pull = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const l of block.split('\n')) {
        if (l.startsWith('event: ')) event = l.slice(7);
        else if (l.startsWith('data: ')) data.push(l.slice(6));
      }
      if (data.length > 0) queue.push({ event, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
  };
  return {
    async next(predicate: (m: SseMessage) => boolean): Promise<SseMessage> {
      for (;;) {
        const index = queue.findIndex(predicate);
        if (index !== -1) return queue.splice(index, 1)[0] as SseMessage;
        await pull();
      }
    },
    cancel: () => reader.cancel(),
  };
}

let server: RunningStatusServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A status server over a fresh FakeSource, listening on loopback with the given live-view options. */
async function startLiveServer(
  live: StartStatusServerOptions['live'] = { throttleMs: 5 },
): Promise<{ source: FakeSource; running: RunningStatusServer }> {
  const source = new FakeSource();
  const running = await startStatusServer({ source, log: silentLogger, listen: '127.0.0.1:0', live });
  server = running;
  return { source, running };
}

/** `GET /events` as a logged-in member of staff. */
async function openEvents(running: RunningStatusServer): Promise<Response> {
  return fetch(new URL('events', running.url), { headers: { cookie: await loginCookie(running) } });
}

describe('GET /events', () => {
  it('sends the rendered sections on connect, then every agent event and a fresh render', async () => {
    const { source, running } = await startLiveServer();
    const res = await openEvents(running);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const sse = sseReader(res.body as ReadableStream<Uint8Array>);

    const first = await sse.next((m) => m.event === 'render');
    const sections = JSON.parse(first.data).sections as Record<string, string>;
    expect(Object.keys(sections).sort()).toEqual([
      'attention',
      'chart',
      'commands',
      'devices',
      'platform',
      'summary',
      'waiting',
    ]);
    expect(sections.devices).toContain('Fiscal printer');
    expect(sections.devices).not.toContain('<img src=x');
    expect(sections.devices).toContain('&lt;img src=x');

    source.transition('cmd-live-1', 'Received');
    const agent = await sse.next((m) => m.event === 'agent');
    expect(JSON.parse(agent.data)).toMatchObject({
      type: 'transition',
      commandId: 'cmd-live-1',
      to: 'Received',
    });
    const rerender = await sse.next((m) => m.event === 'render' && m.data.includes('cmd-live-1'));
    expect(JSON.parse(rerender.data).sections.commands).toContain(
      'data-command-id="cmd-live-1" data-state="Received"',
    );
    await sse.cancel();
  });

  it('escapes platform text inside live updates too', async () => {
    const { source, running } = await startLiveServer();
    const sse = sseReader((await openEvents(running)).body as ReadableStream<Uint8Array>);
    await sse.next((m) => m.event === 'render');
    source.snap.recent.unshift({
      ...(source.snap.recent[0] as (typeof source.snap.recent)[number]),
      id: 'cmd-x',
      notes: textMessage(XSS),
    });
    source.transition('cmd-x', 'Error');
    const update = await sse.next((m) => m.event === 'render' && m.data.includes('cmd-x'));
    const commands = JSON.parse(update.data).sections.commands as string;
    expect(commands).not.toContain('<script>');
    expect(commands).toContain('&lt;script&gt;window.__xss=2&lt;/script&gt;');
    await sse.cancel();
  });

  it('subscribes to the source only while a client listens, and ends streams on close', async () => {
    const { source, running } = await startLiveServer();
    expect(source.subscribers).toBe(1); // metrics only
    const res = await openEvents(running);
    const sse = sseReader(res.body as ReadableStream<Uint8Array>);
    await sse.next((m) => m.event === 'render');
    expect(source.subscribers).toBe(2);
    await running.close();
    server = undefined;
    await expect(sse.next(() => false)).rejects.toThrow();
    expect(source.subscribers).toBe(0);
  });

  it('refuses live views beyond the limit with 503', async () => {
    const { running } = await startLiveServer({ maxClients: 1 });
    const first = await openEvents(running);
    const sse = sseReader(first.body as ReadableStream<Uint8Array>);
    await sse.next((m) => m.event === 'render');
    const second = await openEvents(running);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('10');
    await sse.cancel();
  });
});
