import { request } from 'node:http';
import { z } from 'zod';
import { ManualClock } from '../../src/clock.js';
import { defineAction } from '../../src/drivers-api/actions.js';
import type { DeviceAction } from '../../src/drivers-api/types.js';
import { createMemoryLogger } from '../../src/log.js';
import { textMessage } from '../../src/messages/message.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { type RunningStatusServer, startStatusServer } from '../../src/status/start.js';
import { type ScriptedRequest, sendScripted } from '../helpers/scripted-client.js';
import { inCi } from '../helpers/tools.js';
import { ActionSource } from '../status/helpers/action-source.js';
import { NOW } from '../status/helpers/fake-source.js';

/**
 * The desk the hostile-local suite attacks: a real status server on 127.0.0.1 whose fiscal
 * printer can print X and Z reports and void receipts, and whose encoder cuts keys (FakeSource).
 * `performed` lists what really reached a device; an attack has failed when it stays empty.
 */

export interface Desk {
  server: RunningStatusServer;
  source: ActionSource;
  sessions: StaffSessions;
  clock: ManualClock;
  log: ReturnType<typeof createMemoryLogger>;
  /** Device actions that ran, in order. */
  performed: string[];
  close(): Promise<void>;
}

function fiscalActions(performed: string[]): () => DeviceAction[] {
  const report = (name: string, label: string) =>
    defineAction({
      name,
      label: textMessage(label),
      description: textMessage(label),
      fields: [],
      params: z.object({}).loose(),
      run: async () => {
        performed.push(name);
        return { notes: textMessage(`${label} printed`), details: { report: name } };
      },
    });
  return () => [
    report('x-report', 'Print X report'),
    report('z-report', 'Print Z report'),
    defineAction({
      name: 'void',
      label: textMessage('Void a receipt'),
      description: textMessage('Voids a receipt.'),
      fields: [{ name: 'receipt', label: textMessage('Receipt number'), required: true }],
      confirm: textMessage('Void this receipt.'),
      params: z.object({ receipt: z.string().regex(/^\d{4}-\d{4}$/) }).loose(),
      run: async (params) => {
        performed.push(`void ${params.receipt}`);
        return { notes: textMessage(`Voided ${params.receipt}`), details: { receiptNumber: '0013-0002' } };
      },
    }),
  ];
}

export async function openDesk(
  options: {
    accessToken?: string;
    metricsToken?: string;
    perMinute?: number;
    journal?: boolean;
    auditFile?: string;
    /** Where the page listens (default 127.0.0.1:0). */
    listen?: string;
    /** Serve HTTPS with this certificate and key (PEM). */
    tls?: { cert: string; key: string };
  } = {},
): Promise<Desk> {
  const performed: string[] = [];
  const source = new ActionSource(fiscalActions(performed));
  const clock = new ManualClock(NOW);
  const log = createMemoryLogger({
    clock,
    ...(options.journal ? { journal: true } : {}),
    ...(options.auditFile ? { auditFile: options.auditFile } : {}),
  });
  const sessions = new StaffSessions({ clock });
  const server = await startStatusServer({
    source,
    log,
    clock,
    sessions,
    listen: options.listen ?? '127.0.0.1:0',
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    ...(options.perMinute ? { actions: { perMinute: options.perMinute } } : {}),
  });
  return { server, source, sessions, clock, log, performed, close: () => server.close() };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * What any local process can send: HTTP with every header of its choosing (Host, Origin,
 * Cookie, X-CSRF-Token), which a browser would not let a page set.
 */
export function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The uid of the account running the tests: its browser is the one a code is minted for. */
export const OWN_UID = process.getuid?.() ?? 0;

/**
 * A staff member's session cookie, from a one-time login address (`frontdesk-agent login`) of
 * this process's account: codes and sessions belong to the Unix user who asked (staff-sessions.ts).
 */
export async function staffCookie(desk: Desk, user = 'maria'): Promise<string> {
  const address = desk.server.loginAddress({ login: 'link', uid: OWN_UID, user });
  const login = await raw(address, address);
  if (login.status !== 303) throw new Error(`login refused (${login.status})`);
  return String(login.headers['set-cookie']).split(';')[0] as string;
}

/** The CSRF token of a staff session, as its page gets it. */
export async function csrfOf(desk: Desk, cookie: string): Promise<string> {
  const listing = await raw(desk.server.url, '/actions', { headers: { cookie } });
  return (JSON.parse(listing.text) as { csrfToken: string }).csrfToken;
}

/**
 * What the page's script sends for a logged-in member of staff: a JSON POST from the page's origin
 * with the session cookie and its CSRF token (read as the page reads it, unless given).
 */
export async function postAsStaff(
  desk: Desk,
  path: string,
  session: { cookie: string; csrf?: string; body?: string },
): Promise<RawAnswer> {
  const csrf = session.csrf ?? (await csrfOf(desk, session.cookie));
  return raw(desk.server.url, path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: new URL(desk.server.url).origin,
      cookie: session.cookie,
      'x-csrf-token': csrf,
    },
    body: session.body ?? '{}',
  });
}

/** `nobody`: another account of this PC, as an unprivileged attacker's process runs. */
export const NOBODY = 65534;

/** Other accounts' processes need root to start; CI runs as root, so there they must run. */
export const canRunAsAnotherAccount = OWN_UID === 0 || inCi;

/** One request of `asAccount`'s script: a path on the desk; see `ScriptedRequest`. */
export type AccountRequest = Omit<ScriptedRequest, 'url'> & { path: string };

/**
 * Sends `requests` to `base` in order, from a process of another account (`setpriv`, no groups),
 * as a hostile local program would; resolves to each answer's status and body.
 */
export function asAccount(uid: number, base: string, requests: AccountRequest[]): Promise<RawAnswer[]> {
  return sendScripted(
    ['setpriv', '--reuid', String(uid), '--regid', String(uid), '--clear-groups'],
    requests.map(({ path, ...request }) => ({ ...request, url: new URL(path, base).href })),
  );
}
