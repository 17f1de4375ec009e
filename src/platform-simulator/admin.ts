import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { COMMAND_STATES, type CommandState } from '../connector/wire.js';
import { isLoopback } from '../loopback.js';
import { formatIssues } from '../zod-issues.js';
import { rejection } from './commands.js';
import type { CreateCommandOptions } from './factory.js';
import { MALFORMED_KINDS } from './fault-schema.js';
import { pathOf, readBody, sendJson, statusOf } from './http-util.js';
import { COMMAND_KINDS, type CommandKind } from './scenario.js';
import type { PlatformSimulator } from './simulator-api.js';

export const ADMIN_PREFIX = '/_sim/';

const ReceiptInputSchema = z
  .object({
    serialNumber: z.string().regex(/^[A-Za-z0-9]+$/),
    zNumber: z.string().regex(/^\d{4}$/),
    documentNumber: z.string().regex(/^\d{4}$/),
    dateTimeUtc: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO date-time'),
    deviceId: z.string().min(1).optional(),
  })
  .strict();

const CreateSchema = z
  .object({
    kind: z.enum(COMMAND_KINDS),
    deviceId: z.string().min(1).optional(),
    reservationId: z.string().min(1).optional(),
    keyCount: z.number().int().min(1).max(100).optional(),
    copyCount: z.number().int().min(1).max(20).optional(),
    receipt: ReceiptInputSchema.optional(),
    envelope: z.enum(['soap', 'bare']).optional(),
    malformed: z.enum(MALFORMED_KINDS).optional(),
    /** Created this long ago and left Pending since. */
    ageMs: z
      .number()
      .int()
      .min(0)
      .max(92 * 86_400_000)
      .optional(),
  })
  .strict();

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw rejection(400, formatIssues(result.error));
  return result.data;
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  if (body === undefined) throw rejection(400, 'body too large');
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw rejection(400, 'body is not JSON');
  }
}

function route(
  sim: PlatformSimulator,
  method: string,
  parts: string[],
  query: URLSearchParams,
  body: () => Promise<unknown>,
): Promise<[number, unknown]> | [number, unknown] {
  const [head, id, action] = parts;
  const key = `${method} ${head ?? ''}${id !== undefined ? '/:id' : ''}${action !== undefined ? `/${action}` : ''}`;
  switch (key) {
    case 'GET world':
      return [200, sim.world];
    case 'GET commands': {
      const states = query
        .getAll('state')
        .filter((s): s is CommandState => (COMMAND_STATES as readonly string[]).includes(s));
      const filter: { state?: CommandState[]; deviceId?: string; kind?: CommandKind } = {};
      if (states.length) filter.state = states;
      const deviceId = query.get('deviceId');
      if (deviceId) filter.deviceId = deviceId;
      const kind = query.get('kind');
      if (kind) filter.kind = parse(z.enum(COMMAND_KINDS), kind);
      return [200, { commands: sim.commands(filter), counts: sim.stateCounts() }];
    }
    case 'POST commands':
      return body().then((b) => {
        const { kind, ...options } = parse(CreateSchema, b);
        return [201, sim.createCommand(kind, options as CreateCommandOptions)];
      });
    case 'GET commands/:id': {
      const view = sim.command(id as string);
      return view ? [200, view] : [404, { error: `no command ${id}` }];
    }
    case 'POST commands/:id/cancel':
      return body().then((b) => {
        const { notes } = parse(z.object({ notes: z.string().optional() }).strict(), b);
        return [200, sim.cancelAsStaff(id as string, notes)];
      });
    case 'GET counters':
      return [200, sim.counters()];
    case 'GET requests': {
      const since = Number(query.get('since') ?? Number.NEGATIVE_INFINITY);
      return [200, { requests: sim.requestLog().filter((e) => e.at >= since) }];
    }
    case 'GET faults':
      return [200, sim.faults()];
    case 'POST faults':
      return body().then((b) => [200, sim.setFaults(b as never)]);
    case 'DELETE faults':
      return [200, sim.clearFaults()];
    case 'GET generator':
      return [200, { running: sim.generatorRunning }];
    case 'POST generator/:id':
      if (id === 'start') sim.startGenerator();
      else if (id === 'stop') sim.stopGenerator();
      else return [404, { error: `unknown generator action ${id}` }];
      return [200, { running: sim.generatorRunning }];
    case 'POST websocket/:id':
      if (id !== 'drop') return [404, { error: `unknown websocket action ${id}` }];
      return [200, { dropped: sim.dropWebSockets() }];
    case 'GET websocket':
      return [200, { open: sim.openWebSockets }];
    case 'GET receipts':
      return [200, { receipts: sim.receipts() }];
    case 'POST receipts':
      return body().then((b) => [201, sim.addReceipt(parse(ReceiptInputSchema, b))]);
    case 'POST reset':
      sim.reset();
      return [200, { reset: true }];
    default:
      return [404, { error: `no admin route ${method} /_sim/${parts.join('/')}` }];
  }
}

/**
 * The admin API under `/_sim/`: JSON, no tokens, loopback clients only (403 otherwise). Routes:
 * `GET world`, `GET commands?state=&deviceId=&kind=`, `POST commands {kind, …options}`,
 * `GET commands/:id`, `POST commands/:id/cancel {notes?}`, `GET counters`,
 * `GET requests?since=<ms>`, `GET|POST|DELETE faults`, `GET generator`,
 * `POST generator/start|stop`, `GET websocket`, `POST websocket/drop`, `GET|POST receipts`,
 * `POST reset`. Errors are `{error}` with 400/403/404/409.
 */
export async function handleAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  sim: PlatformSimulator,
): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress ?? '')) {
    sendJson(res, 403, { error: 'the admin API answers loopback clients only' });
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const parts = pathOf(req).slice(ADMIN_PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent);
  try {
    const [status, payload] = await route(sim, req.method ?? 'GET', parts, url.searchParams, () =>
      jsonBody(req),
    );
    sendJson(res, status, payload);
  } catch (e) {
    const status = statusOf(e);
    sendJson(res, status, { error: status === 500 ? 'internal error' : (e as Error).message });
  }
}
