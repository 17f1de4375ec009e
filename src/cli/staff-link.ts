import { lstatSync, type Stats } from 'node:fs';
import { request } from 'node:http';
import { dirname } from 'node:path';
import type { Message } from '../messages/message.js';
import { staffMessages } from '../status/callers/index.js';
import { accountId, staffSocketPath, untrustedDirectory } from '../status/sockets/index.js';

/**
 * The command line's way to the running agent: HTTP over the staff socket (src/status/
 * staff-socket.ts), never over TCP. The kernel tells the agent who is asking, so the command line
 * sends no secret at all: nothing a process squatting on 127.0.0.1:8720 while the agent restarts
 * could collect (the status token used to go there).
 *
 * Before connecting it checks that the socket is the agent's: a socket (not a link), owned by
 * root, the service user (`frontdesk-agent`) or the user running the command (a developer's
 * `npm start`), in a directory chain up to `/` that no one else can write (`untrustedDirectory`).
 * A socket anybody else could have put there is refused.
 */

/** The service's account (systemd/frontdesk-agent.service `User=`). */
export const SERVICE_USER = 'frontdesk-agent';

/** Where the command line looks: the one rule the agent follows too (`staffSocketPath`). */
export function staffSocketOf(config: { status: { staffSocket?: string | undefined } }): string {
  return staffSocketPath(config.status.staffSocket);
}

/** Why the command line could not talk to the agent, with the sentence for the person. */
export class StaffLinkError extends Error {
  override readonly name = 'StaffLinkError';
  constructor(
    /** `absent`: no agent there; `not-staff`: the socket refuses this user; `unsafe`: not the agent's. */
    readonly reason: 'absent' | 'not-staff' | 'unsafe',
    readonly notes: Message,
    detail: string,
  ) {
    super(detail);
  }
}

/** The accounts a staff socket and its directories may belong to: root, the service, this user. */
export function trustedOwners(
  ownUid = process.getuid?.() ?? -1,
  serviceUid = accountId(SERVICE_USER, '/etc/passwd'),
): number[] {
  return [0, ownUid, ...(serviceUid !== undefined ? [serviceUid] : [])];
}

/**
 * Why a socket at `path` is not trusted to be the agent's; undefined when it is. Throws what
 * `stat` throws (ENOENT when there is nothing there).
 */
export function unsafeSocketReason(
  path: string,
  owners: readonly number[] = trustedOwners(),
  stat: (p: string) => Stats = lstatSync,
): string | undefined {
  const socket = stat(path);
  if (!socket.isSocket()) return 'not a socket';
  if (!owners.includes(socket.uid))
    return `owned by uid ${socket.uid}, neither root, the service user (${SERVICE_USER}) nor you`;
  return untrustedDirectory(dirname(path), owners, stat);
}

export interface StaffAnswer {
  status: number;
  body: Buffer;
}

export interface StaffRequest {
  method: 'GET' | 'POST';
  path: string;
  /** A JSON body. */
  json?: unknown;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/** The sentence and reason for a connection error, or undefined for one to rethrow. */
function linkErrorOf(error: NodeJS.ErrnoException, path: string, group: string): StaffLinkError | undefined {
  // What it looked for, and why it found nothing there (issue 41, item 2).
  if (error.code === 'ENOENT')
    return new StaffLinkError('absent', staffMessages.agentAbsent({ path }), `ENOENT ${path}`);
  if (error.code === 'ECONNREFUSED')
    return new StaffLinkError('absent', staffMessages.agentStopped({ path }), `ECONNREFUSED ${path}`);
  if (error.code === 'EACCES' || error.code === 'EPERM')
    return new StaffLinkError(
      'not-staff',
      staffMessages.askForGroup({ path, group, user: process.env.USER ?? 'USER' }),
      `${error.code} ${path}`,
    );
  return undefined;
}

/**
 * One request to the agent through its staff socket. Rejects with `StaffLinkError` when the
 * socket is missing, refuses this user or is not the agent's; with the transport's error
 * otherwise. Answers of any status resolve.
 */
export async function staffRequest(path: string, group: string, req: StaffRequest): Promise<StaffAnswer> {
  let reason: string | undefined;
  try {
    reason = unsafeSocketReason(path);
  } catch (error) {
    throw linkErrorOf(error as NodeJS.ErrnoException, path, group) ?? error;
  }
  if (reason) throw new StaffLinkError('unsafe', staffMessages.socketUnsafe({ path, reason }), reason);
  const body = req.json === undefined ? undefined : Buffer.from(JSON.stringify(req.json), 'utf8');
  return new Promise<StaffAnswer>((resolve, reject) => {
    const outgoing = request(
      {
        socketPath: path,
        method: req.method,
        path: req.path,
        headers: {
          host: 'localhost',
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
        },
        timeout: req.timeoutMs,
        ...(req.signal ? { signal: req.signal } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > req.maxBytes) {
            response.destroy(new Error(`the agent's answer is larger than ${req.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const answer = { status: response.statusCode ?? 0, body: Buffer.concat(chunks) };
          // The agent read this user's credentials from the kernel and found no staff group.
          if (
            answer.status === 403 &&
            answerJson<{ error: { code: string } }>(answer).error?.code === 'NOT_STAFF'
          )
            reject(linkErrorOf(Object.assign(new Error('not staff'), { code: 'EACCES' }), path, group));
          else resolve(answer);
        });
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`the agent did not answer in ${req.timeoutMs} ms`)),
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => reject(linkErrorOf(error, path, group) ?? error));
    outgoing.end(body);
  });
}

/** Parses a JSON answer into an object (an empty one for anything else). */
export function answerJson<T extends object>(answer: StaffAnswer): Partial<T> {
  try {
    const value = JSON.parse(answer.body.toString('utf8')) as unknown;
    return value && typeof value === 'object' ? (value as Partial<T>) : {};
  } catch {
    return {};
  }
}
