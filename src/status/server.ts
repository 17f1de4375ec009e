import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Clock } from '../clock.js';
import { errorFields, type Logger } from '../log.js';
import type { Locale } from '../messages/catalogue.js';
import { readMessage } from '../messages/message.js';
import { english, messageRenderer } from '../messages/render.js';
import type { StatusSource } from '../status-model.js';
import {
  cutErrorText,
  type LocalActionLimits,
  LocalActions,
  registerCutKeys,
  registerDeliverNow,
  registerDeviceActions,
} from './actions/index.js';
import {
  accessOf,
  BASE_HEADERS,
  type Caller,
  type CallerDeps,
  type ConnectionEnds,
  FailedAttempts,
  identify,
  isLoopbackHostHeader,
  pageCsp,
  peerResolver,
  REFUSALS,
  registerLogin,
  StaffSessions,
  sessionCookieName,
  type Verdict,
  verdict,
} from './callers/index.js';
import { createLiveFeed } from './events/index.js';
import { createMetrics, type StatusMetrics } from './metrics/index.js';
import { pageMessages, renderPage } from './page/index.js';
import { type StaffSocket, type StaffSocketOptions, startStaffSocket } from './sockets/index.js';

export interface StatusServerOptions {
  source: StatusSource;
  log: Logger;
  /**
   * The action token (`status.accessTokenFile`): `Authorization: Bearer …` for scripts, and IT's
   * way to log in to the page (the form at `/login`); from beyond loopback only over TLS. Without
   * it and `metricsToken`, only requests addressed to a loopback host name are served. Either
   * way the page, `/status.json` and every action need a caller who proved who they are
   * (callers.ts); only `/healthz` and `/metrics` stay open to loopback.
   */
  accessToken?: string;
  /** The read-only metrics token (`status.metricsTokenFile`): `/metrics` and `/healthz` only. */
  metricsToken?: string;
  /** Serve HTTPS with this key and certificate (`status.tls`), PEM. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * The uid owning a loopback peer's socket (peer-uid.ts `loopbackPeerUid` by default): sessions
   * and login codes are bound to it. Tests of `inject()`, which has no socket, pass their own.
   */
  peerUid?: (socket: ConnectionEnds) => Promise<number | undefined>;
  /** Failed logins and tokens allowed per source in any 60 s (default 10, attempts.ts). */
  failuresPerMinute?: number;
  /** The page's logins; a fresh set when omitted (tests pass one to mint login codes). */
  sessions?: StaffSessions;
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
  /** The staff group's name, for the sentence that refuses a non-staff peer. */
  staffGroup?: string;
}

/** Each built server's caller rules, so that a staff socket can be attached to it afterwards. */
const staffLinks = new WeakMap<FastifyInstance, CallerDeps>();

/**
 * Serves `app`'s routes on the staff socket too (staff-socket.ts): its callers are identified by
 * the kernel's peer credentials. Call after `app.ready()` (or `listen`); close the socket before
 * the app.
 */
export async function serveOnStaffSocket(
  app: FastifyInstance,
  options: Omit<StaffSocketOptions, 'handler'>,
): Promise<StaffSocket> {
  const deps = staffLinks.get(app);
  if (!deps) throw new Error('not a status server');
  await app.ready();
  const staff = await startStaffSocket({
    ...options,
    handler: (request, response) => app.routing(request, response),
  });
  deps.staff = staff;
  return staff;
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Builds the status server without listening (test it with `inject()`): `/` (the page),
 * `/events` (SSE), `/status.json`, `/healthz`, `/metrics`, `/login` and `/logout` (login.ts),
 * `POST /cut-keys`, and the device actions (`GET /actions`, `POST /actions/<device>/<action>`:
 * device-actions.ts). Every request's caller is identified first (callers.ts): only `/healthz`,
 * `/metrics` (from loopback) and `/login` answer a caller who has not proved who they are; the
 * page sends an anonymous browser to `/login`. Closing the instance ends live streams and
 * unsubscribes from the source.
 */
export function buildStatusServer(options: StatusServerOptions): FastifyInstance {
  const { source, log, accessToken, metricsToken } = options;
  const locale = options.locale ?? 'en';
  const say = messageRenderer(locale);
  const metrics = options.metrics ?? createMetrics();
  const clockOption = options.clock ? { clock: options.clock } : {};
  const sessions = options.sessions ?? new StaffSessions(clockOption);
  const tls = options.tls !== undefined;
  const resolvePeer = peerResolver(options.peerUid);
  const attempts = new FailedAttempts({
    ...clockOption,
    ...(options.failuresPerMinute ? { perMinute: options.failuresPerMinute } : {}),
  });
  const callerDeps: CallerDeps = {
    sessions,
    accessToken,
    metricsToken,
    cookieName: sessionCookieName(tls),
    peerOf: resolvePeer,
    attempts,
    log,
  };
  const live = createLiveFeed({ source, log, locale, ...clockOption, ...options.live });
  const unsubscribeMetrics = source.subscribe((event) => metrics.handle(event));
  const actions = new LocalActions({
    log,
    ...(options.actions ? { limits: options.actions } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const maxKeyCount = actions.limits.maxKeyCount;
  const stopping = new AbortController();

  const app = Fastify({
    ...(options.tls ? { https: { key: options.tls.key, cert: options.tls.cert } } : {}),
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

  const callers = new WeakMap<object, Caller>();
  const callerOf = (request: { raw: object }): Caller => {
    const caller = callers.get(request.raw);
    if (!caller) throw new Error('request without an identified caller');
    return caller;
  };
  staffLinks.set(app, callerDeps);

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(BASE_HEADERS);
    const caller = await identify(request.raw, request.ip, callerDeps);
    callers.set(request.raw, caller);
    const throughSocket = caller.kind === 'staff-socket' || caller.kind === 'refused';
    const remoteCredential = accessToken !== undefined || metricsToken !== undefined;
    if (!remoteCredential && !throughSocket && !isLoopbackHostHeader(request.headers.host)) {
      log.debug('status server refused a request for a non-loopback host name');
      return reply
        .code(403)
        .type('text/plain; charset=utf-8')
        .send('Forbidden: use http://127.0.0.1 or localhost.\n');
    }
    const path = pathOf(request.url);
    const decided = verdict(accessOf(path), caller, request.ip, request.headers.host);
    if (decided === 'ok') return;
    return refuse(reply, decided, request.method === 'GET' && path === '/');
  });

  const refuse = (reply: FastifyReply, decided: Exclude<Verdict, 'ok'>, pageRequest: boolean) => {
    if (decided === 'login-first' && pageRequest) return reply.code(303).header('location', 'login').send();
    const { status, code, notes } = REFUSALS[decided];
    if (status === 401 && (accessToken !== undefined || metricsToken !== undefined))
      reply.header('www-authenticate', 'Bearer realm="frontdesk-agent"');
    if (decided === 'not-staff') reply.header('connection', 'close');
    if (decided === 'too-many-attempts') reply.header('retry-after', '60');
    const group = options.staffGroup ?? 'frontdesk-staff';
    return reply.code(status).send({ error: { code, notes: say.render(notes(group)) } });
  };

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
    const caller = callerOf(request);
    const csrfToken = caller.kind === 'session' ? caller.session.csrfToken : '';
    const query = request.query as Record<string, unknown>;
    const nonce = randomBytes(16).toString('base64');
    let notice: { commandId: string } | { error: string } | undefined;
    // Only an id-shaped value is echoed, so a crafted link cannot put sentences on the page.
    if (typeof query.cut === 'string' && /^[\w-]{1,100}$/.test(query.cut)) notice = { commandId: query.cut };
    else if (typeof query.cutError === 'string') {
      const text = cutErrorText(query.cutError, maxKeyCount, say);
      if (text) notice = { error: text };
    }
    const actionNotice = actionNotices.find(query.action);
    const queueNotice = queueNotices.find(query.queue);
    const body = renderPage({
      snapshot: source.snapshot(),
      health: source.health(),
      nonce,
      csrfToken,
      notice,
      maxKeyCount,
      ...(actionNotice ? { actionNotice } : {}),
      ...(queueNotice ? { queueNotice } : {}),
      locale,
    });
    return reply
      .header('content-security-policy', pageCsp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);
  });

  app.get('/events', { exposeHeadRoute: false }, (request, reply) => {
    const caller = callerOf(request);
    reply.hijack();
    // An open page keeps its session from going idle, and its stream ends with the session.
    const stillValid = caller.kind === 'session' ? () => sessions.keepAlive(caller.cookie) : undefined;
    live.attach(reply.raw, reply.getHeaders() as OutgoingHttpHeaders, stillValid);
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

  registerLogin(app, {
    sessions,
    accessToken,
    metricsToken,
    say,
    locale,
    log,
    callerOf,
    peerOf: (request) => resolvePeer(request.raw.socket, request.ip),
    attempts,
    tls,
    csp: pageCsp,
  });
  registerCutKeys(app, { source, log, actions, callerOf, say });
  const actionNotices = registerDeviceActions(app, {
    source,
    log,
    actions,
    callerOf,
    signal: stopping.signal,
    say,
  });

  const queueNotices = registerDeliverNow(app, {
    source,
    log,
    actions,
    callerOf,
    say,
    locale,
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
