import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import { AgentError } from '../errors.js';
import { errorFields, type Logger } from '../log.js';
import { isLoopback } from '../loopback.js';
import type { Locale } from '../messages/catalogue.js';
import { readMessage } from '../messages/message.js';
import { english, messageRenderer } from '../messages/render.js';
import type { StatusSource } from '../status-model.js';
import {
  hasAccess,
  isLoopbackHostHeader,
  parseListen,
  randomToken,
  safeEqual,
  TOKEN_COOKIE,
} from './access.js';
import { cutErrorText, registerCutKeys } from './cut-keys.js';
import { noticeFor, registerDeviceActions } from './device-actions.js';
import { createLiveFeed } from './live-feed.js';
import { type LocalActionLimits, LocalActions } from './local-actions.js';
import { pageMessages } from './messages.js';
import { createMetrics, type StatusMetrics } from './metrics.js';
import { renderPage } from './page.js';

export interface StatusServerOptions {
  source: StatusSource;
  log: Logger;
  /**
   * When set, every request must carry it (`Authorization: Bearer …`, or the `token` cookie that
   * `/login?token=…` sets). When unset, only requests addressed to a loopback host name are served.
   */
  accessToken?: string;
  /** Fed from `source.subscribe()` by the server itself; a fresh set when omitted. */
  metrics?: StatusMetrics;
  /** Live update pacing (see `createLiveFeed`). */
  live?: { throttleMs?: number; refreshMs?: number; maxClients?: number };
  /** Bounds and rate of the page's actions (`status.actions`); defaults 10 keys, 10 a minute. */
  actions?: Partial<LocalActionLimits>;
  /** For the actions' per-minute window; the system clock by default. */
  clock?: Clock;
  /** The page's language (the config's `locale`); English by default. `/healthz` stays English. */
  locale?: Locale;
}

const BASE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** The page's policy: only our own inline style and script (by nonce), only our own origin. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Builds the status server without listening (test it with `inject()`): `/` (the page),
 * `/events` (SSE), `/status.json`, `/healthz`, `/metrics`, `/login`, `POST /cut-keys`, and the
 * device actions (`GET /actions`, `POST /actions/<device>/<action>`: device-actions.ts).
 * Closing the instance ends live streams and unsubscribes from the source.
 */
export function buildStatusServer(options: StatusServerOptions): FastifyInstance {
  const { source, log, accessToken } = options;
  const locale = options.locale ?? 'en';
  const say = messageRenderer(locale);
  const metrics = options.metrics ?? createMetrics();
  const csrfToken = randomToken();
  const live = createLiveFeed({ source, log, locale, ...options.live });
  const unsubscribeMetrics = source.subscribe((event) => metrics.handle(event));
  const actions = new LocalActions({
    log,
    ...(options.actions ? { limits: options.actions } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const maxKeyCount = actions.limits.maxKeyCount;
  const stopping = new AbortController();

  const app = Fastify({
    logger: false,
    bodyLimit: 16 * 1024,
    forceCloseConnections: true,
    return503OnClosing: true,
  });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(BASE_HEADERS);
    if (accessToken === undefined) {
      if (!isLoopbackHostHeader(request.headers.host)) {
        log.debug('status server refused a request for a non-loopback host name');
        return reply
          .code(403)
          .type('text/plain; charset=utf-8')
          .send('Forbidden: use http://127.0.0.1 or localhost.\n');
      }
      return;
    }
    if (pathOf(request.url) === '/login') return;
    if (!hasAccess(request.headers, accessToken)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="frontdesk-agent"')
        .type('text/plain; charset=utf-8')
        .send(
          'Unauthorized: open /login?token=<access token> once, or send Authorization: Bearer <access token>.\n',
        );
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    log.debug('status request', {
      method: request.method,
      path: pathOf(request.url),
      status: reply.statusCode,
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const statusCode = (error as { statusCode?: unknown }).statusCode;
    const status = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : 500;
    if (status === 500)
      log.error('status server error', { path: pathOf(request.url), ...errorFields(error) });
    reply.code(status).send({
      error: {
        code: status === 500 ? 'INTERNAL' : 'BAD_REQUEST',
        notes: say.render(pageMessages.requestFailed()),
      },
    });
  });

  app.get('/', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const nonce = randomBytes(16).toString('base64');
    let notice: { commandId: string } | { error: string } | undefined;
    // Only an id-shaped value is echoed, so a crafted link cannot put sentences on the page.
    if (typeof query.cut === 'string' && /^[\w-]{1,100}$/.test(query.cut)) notice = { commandId: query.cut };
    else if (typeof query.cutError === 'string') {
      const text = cutErrorText(query.cutError, maxKeyCount, say);
      if (text) notice = { error: text };
    }
    const actionNotice = noticeFor(actionNotices, query.action);
    const body = renderPage({
      snapshot: source.snapshot(),
      health: source.health(),
      nonce,
      csrfToken,
      notice,
      maxKeyCount,
      ...(actionNotice ? { actionNotice } : {}),
      locale,
    });
    return reply
      .header('content-security-policy', pageCsp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);
  });

  app.get('/events', { exposeHeadRoute: false }, (_request, reply) => {
    reply.hijack();
    live.attach(reply.raw, reply.getHeaders() as OutgoingHttpHeaders);
  });

  app.get('/status.json', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(source.snapshot()),
  );

  app.get('/healthz', async (_request, reply) => {
    const health = source.health();
    reply.header('cache-control', 'no-store');
    return health.ok
      ? reply.send({ ok: true })
      : reply.code(503).send({ ok: false, reasons: health.reasons.map((r) => english(readMessage(r))) });
  });

  app.get('/metrics', async (_request, reply) => {
    metrics.collect(source.snapshot());
    const text = await metrics.text();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });

  app.get('/login', async (request, reply) => {
    if (accessToken === undefined) return reply.code(303).header('location', './').send();
    const token = (request.query as Record<string, unknown>).token;
    if (typeof token !== 'string' || !safeEqual(token, accessToken)) {
      log.warn('status page login refused');
      return reply.code(401).type('text/plain; charset=utf-8').send('Unauthorized: wrong token.\n');
    }
    return reply
      .code(303)
      .header(
        'set-cookie',
        `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000`,
      )
      .header('location', './')
      .send();
  });

  registerCutKeys(app, { source, log, csrfToken, actions, tokenRequired: accessToken !== undefined, say });
  const actionNotices = registerDeviceActions(app, {
    source,
    log,
    csrfToken,
    actions,
    accessToken,
    signal: stopping.signal,
    say,
  });

  app.addHook('preClose', async () => {
    stopping.abort();
    live.close();
  });
  app.addHook('onClose', async () => {
    unsubscribeMetrics();
  });
  return app;
}

export interface StartStatusServerOptions extends StatusServerOptions {
  /** `host:port`, e.g. `127.0.0.1:8720`; port 0 picks a free one. */
  listen: string;
}

export interface RunningStatusServer {
  app: FastifyInstance;
  /** The bound address as a base URL, e.g. `http://127.0.0.1:8720/`. */
  url: string;
  port: number;
  /** Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds and starts the status server. Rejects with CONFIG_INVALID, before binding anything, when
 * `listen` is not a loopback address and no access token is configured; rejects with
 * CONFIG_INVALID when the address cannot be bound (in use, not local).
 */
export async function startStatusServer(options: StartStatusServerOptions): Promise<RunningStatusServer> {
  let host: string;
  let port: number;
  try {
    ({ host, port } = parseListen(options.listen));
  } catch (error) {
    throw new AgentError('CONFIG_INVALID', `status.listen: ${(error as Error).message}`);
  }
  if (!isLoopback(host) && !options.accessToken) {
    throw new AgentError(
      'CONFIG_INVALID',
      `status.listen ${options.listen} is not a loopback address: configure status.accessTokenFile, or listen on 127.0.0.1`,
    );
  }
  const app = buildStatusServer(options);
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    throw new AgentError(
      'CONFIG_INVALID',
      `Cannot listen on ${options.listen}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  options.log.info('status page listening', { url: `http://${shownHost}:${address.port}/` });
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    close: () => {
      closing ??= app.close().then(() => undefined);
      return closing;
    },
  };
}
