import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type Clock, systemClock } from '../../clock.js';
import { errorFields, type Logger } from '../../log.js';
import type { Locale } from '../../messages/catalogue.js';
import { runPeriodically } from '../../periodic.js';
import type { AgentEvent, StatusSource } from '../../status-model.js';
import { renderSections } from '../page/index.js';

/**
 * Server-sent events for the status page (`GET /events`). Two event types:
 * - `agent`: every `AgentEvent` as JSON, as it happens (the page follows a command it created);
 * - `render`: `{sections: {id: html}}`, the page's live sections rendered and escaped on the
 *   server from a fresh snapshot — sent on connect, at most once per `throttleMs` after events,
 *   and every `refreshMs` (so "12 s ago" and the rate budget stay current).
 * The feed subscribes to the source only while at least one client is connected. A client that
 * stops reading (more than `maxBufferedBytes` queued) is dropped; EventSource reconnects it. At
 * most `maxClients` streams are served at once.
 */
export interface LiveFeed {
  /**
   * Takes over `res` (already hijacked from the framework) until the client goes away, or until
   * `stillValid` (asked at every refresh) says the session it was opened for has ended.
   */
  attach(res: ServerResponse, headers: OutgoingHttpHeaders, stillValid?: () => boolean): void;
  readonly clients: number;
  /** Ends every stream and stops the timers. Idempotent. */
  close(): void;
}

export interface LiveFeedOptions {
  source: StatusSource;
  log: Logger;
  /** The page's language; English by default. */
  locale?: Locale;
  throttleMs?: number;
  refreshMs?: number;
  /** Paces the refresh; the system clock by default. */
  clock?: Clock;
  maxBufferedBytes?: number;
  /** Streams served at once; more are refused with 503. Default 32. */
  maxClients?: number;
}

export function createLiveFeed(options: LiveFeedOptions): LiveFeed {
  const { source, log } = options;
  const throttleMs = options.throttleMs ?? 250;
  const refreshMs = options.refreshMs ?? 5000;
  const maxBuffered = options.maxBufferedBytes ?? 1 << 20;
  const maxClients = options.maxClients ?? 32;
  const clients = new Map<ServerResponse, (() => boolean) | undefined>();
  let unsubscribe: (() => void) | undefined;
  let pending: NodeJS.Timeout | undefined;
  /** Ends the refresh loop, which runs while at least one client is connected. */
  let refresh: AbortController | undefined;
  let closed = false;

  const write = (res: ServerResponse, chunk: string) => {
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > maxBuffered) {
      log.warn('status page client is not reading; dropping it');
      res.destroy();
      return;
    }
    res.write(chunk);
  };

  const broadcast = (chunk: string) => {
    for (const res of clients.keys()) write(res, chunk);
  };

  /** Ends the streams whose session has ended (logged out, over its lifetime). */
  const dropEnded = () => {
    for (const [res, stillValid] of clients) {
      if (stillValid && !stillValid()) {
        clients.delete(res);
        res.end();
      }
    }
  };

  const frame = (): string | undefined => {
    try {
      const sections = renderSections(source.snapshot(), source.health(), options.locale);
      const data: Record<string, string> = {};
      for (const [id, markup] of Object.entries(sections)) data[id] = markup.value;
      return `event: render\ndata: ${JSON.stringify({ sections: data })}\n\n`;
    } catch (error) {
      log.warn('status page could not render a snapshot', errorFields(error));
      return undefined;
    }
  };

  const renderNow = () => {
    pending = undefined;
    dropEnded();
    if (clients.size === 0) return;
    const chunk = frame();
    if (chunk) broadcast(chunk);
  };

  const onEvent = (event: AgentEvent) => {
    broadcast(`event: agent\ndata: ${JSON.stringify(event)}\n\n`);
    if (!pending) pending = setTimeout(renderNow, throttleMs);
  };

  const start = () => {
    unsubscribe = source.subscribe(onEvent);
    refresh = new AbortController();
    void runPeriodically(renderNow, {
      clock: options.clock ?? systemClock,
      signal: refresh.signal,
      intervalMs: refreshMs,
      firstRun: 'after-interval',
      onError: (error) => log.warn('status page refresh failed', errorFields(error)),
    });
  };

  const stop = () => {
    unsubscribe?.();
    unsubscribe = undefined;
    refresh?.abort();
    if (pending) clearTimeout(pending);
    refresh = undefined;
    pending = undefined;
  };

  return {
    attach(res, headers, stillValid) {
      if (closed || clients.size >= maxClients) {
        res
          .writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '10' })
          .end(closed ? 'shutting down\n' : 'too many live views open\n');
        return;
      }
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.socket?.setNoDelay(true);
      clients.set(res, stillValid);
      if (clients.size === 1) start();
      res.on('close', () => {
        clients.delete(res);
        if (clients.size === 0) stop();
      });
      write(res, 'retry: 3000\n\n');
      const chunk = frame();
      if (chunk) write(res, chunk);
    },
    get clients() {
      return clients.size;
    },
    close() {
      closed = true;
      stop();
      for (const res of clients.keys()) res.end();
      clients.clear();
    },
  };
}
