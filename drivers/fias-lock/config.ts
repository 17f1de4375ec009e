import { z } from 'zod';
import { milliseconds } from '../../src/drivers-api/options.js';
import { isLoopback } from '../../src/loopback.js';
import { isIpLiteral, normalizeAddress } from '../../src/transport/tcp-listener.js';
import type { DepartureTimeFormat } from './time.js';

/**
 * The options of a FIAS lock server's key encoder. The agent is the PMS side of FIAS and the lock
 * server connects to it (IFC8 FIAS specification 2.20.23, §7 p.90: the PMS interface "always acts
 * as the server"; help.mews.com 4394298: for FIAS the platform's own application "expects the door
 * lock software to initiate the connection"), so the options say where the agent listens and
 * which address may connect. See README.md for every option.
 *
 * `lockServer` has no default (issue 40 M1): whoever connects from that address is the lock
 * server to the agent — it receives the guests' names and stays, and its OK marks keys cut — and
 * on loopback that is any program of any local account. It must be set, as the address of the
 * lock server (or of the tunnel that brings it, README.md "A lock server on the LAN").
 */

const ipLiteral = z
  .string()
  .min(1)
  .refine(isIpLiteral, 'expected an IP address such as 192.168.1.20 (the lock server’s, not a name)')
  .transform(normalizeAddress);

export const FiasLockOptionsSchema = z
  .object({
    /** The address the agent listens on: loopback unless the lock server runs on another PC. */
    host: z.string().min(1).default('127.0.0.1'),
    /** The TCP port the lock server's PMS (FIAS) interface connects to. */
    port: z.number().int().min(1).max(65535),
    /** The lock server's address (or a list): connections from anywhere else are refused. Required. */
    lockServer: z.preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z
        .array(ipLiteral, {
          error: (issue) =>
            issue.input === undefined
              ? 'required: the lock server’s IP address (every other address is refused; 127.0.0.1 lets any program on this PC be the lock server)'
              : undefined,
        })
        .min(1)
        .max(8),
    ),
    /** `KC`, the encoder's id in the lock system; overrides the command's `KeyCutterId`. */
    encoderId: z.string().min(1).max(8).optional(),
    /** `WS`, the workstation the lock server records for the request (at most 16 characters). */
    workstation: z.string().min(1).max(16).default('FRONTDESK'),
    /** Platform room (LockIds entry) → the lock system's room. Unmapped ids go as they are. */
    rooms: z.record(z.string(), z.string().min(1)).default({}),
    /** The first key of a command: `new` (KTN: earlier keys of the room stop working) or `duplicate` (KTD). */
    firstKey: z.enum(['new', 'duplicate']).default('new'),
    /** `DT`, the departure time: `HH:MM` as the specification writes it, or `HHMMSS`. */
    departureTime: z.enum(['HH:MM', 'HHMMSS']).default('HH:MM'),
    /** `KO`, key options (areas, levels), sent as they are when the lock server asks for KO. */
    keyOptions: z.string().min(1).max(20).optional(),
    /** Guest names as Latin-1 (the specification's single-byte code page) or plain ASCII. */
    charset: z.enum(['latin1', 'ascii']).default('latin1'),
    /** `PH`, the hotel id returned in LC when the lock server's LD asks for it (RT). */
    hotelId: z.string().min(1).max(20).default('1'),
    /** How long one key may take: a person presents the card (the lock server answers when written). */
    answerTimeoutMs: milliseconds(100, 60_000),
    /** A connected lock server must finish LD/LR/LA within this (spec §5 p.16: at least 30 s). */
    linkTimeoutMs: milliseconds(100, 30_000),
    /** How long `open()` waits for the lock server to (re)connect before saying it is away. */
    openWaitMs: milliseconds(0, 10_000),
    /** The agent's alive check (LA) after this much silence; 0 turns it off. */
    aliveCheckMs: milliseconds(0, 300_000),
    /** Silence after the alive check that counts as a lost link. */
    aliveTimeoutMs: milliseconds(100, 30_000),
    /** On shutdown, how long to wait for the lock server's LE (spec p.28: 2 s on TCP). */
    linkEndWaitMs: milliseconds(0, 2_000),
    /** Kernel keep-alive probes on the lock server's connection after this much idle time; 0: off. */
    keepAliveMs: milliseconds(0, 30_000),
    /** Retries of a key the lock server answers BY (encoder busy) or RY (retry). */
    busyRetries: z.number().int().min(0).max(10).default(2),
    busyBackoffMs: milliseconds(1, 2_000),
    /** Back-off of binding the port again while another program holds it. */
    rebindMinMs: milliseconds(1, 1_000),
    rebindMaxMs: milliseconds(1, 30_000),
    maxKeys: z.number().int().min(1).max(100).default(10),
  })
  .superRefine((o, ctx) => {
    const servers = o.lockServer;
    if (isLoopback(o.host) && servers.some((s) => !isLoopback(s))) {
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: `the agent listens on ${o.host} (this PC only), so the lock server ${servers.join(', ')} cannot connect; set host to this PC's LAN address`,
      });
    }
    if (o.rebindMaxMs < o.rebindMinMs) {
      ctx.addIssue({ code: 'custom', path: ['rebindMaxMs'], message: 'must be ≥ rebindMinMs' });
    }
  })
  .transform((o) => ({
    ...o,
    lockServers: o.lockServer,
    departureTime: o.departureTime as DepartureTimeFormat,
  }));

export type FiasLockOptions = z.infer<typeof FiasLockOptionsSchema>;

/** "127.0.0.1:5010", where the lock server must connect. */
export function listenAddress(o: Pick<FiasLockOptions, 'host' | 'port'>): string {
  return o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]:${o.port}` : `${o.host}:${o.port}`;
}
