import { z } from 'zod';
import { milliseconds } from '../../src/drivers-api/options.js';
import { CP2110_PRODUCT_ID, CP2110_VENDOR_ID } from '../../src/transport/cp2110.js';
import type { TransportSpec } from '../../src/transport/types.js';

/**
 * The salto-encoder driver's `options:`. Every option is documented in README.md with an
 * example. Validation rejects combinations that cannot work (a serial encoder without a path).
 */

const accessCode = z.number().int().min(1).max(62);
const usbId = z.union([
  z.number().int().min(0).max(0xffff),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,4}$/, 'expected a USB id such as 0x10c4')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

export const SaltoEncoderOptionsSchema = z
  .object({
    transport: z.enum(['serial', 'tcp', 'hid', 'memory']),
    /** serial: `/dev/serial/by-id/…`; hid: a hidraw path when several bridges share VID/PID. */
    path: z.string().min(1).optional(),
    baudRate: z.number().int().min(300).max(1_000_000).default(9600),
    host: z.string().min(1).optional(),
    port: z.number().int().min(1).max(65535).optional(),
    connectTimeoutMs: milliseconds(100, 5000),
    vendorId: usbId.default(CP2110_VENDOR_ID),
    productId: usbId.default(CP2110_PRODUCT_ID),
    serialNumber: z.string().min(1).optional(),
    /** memory: the simulator endpoint's name. */
    name: z.string().min(1).optional(),
    /** The encoder's id in the lock software; overrides the command's `KeyCutterId`. */
    encoderId: z.string().min(1).optional(),
    /** Platform room (LockIds entry) → the lock software's room name. Unmapped ids go as they are. */
    rooms: z.record(z.string(), z.string().min(1)).default({}),
    eject: z.enum(['eject', 'retain', 'rear']).default('eject'),
    /** The first card of a job: `new` (CN, earlier cards of the room stop working) or `copy` (CC). */
    firstCard: z.enum(['new', 'copy']).default('new'),
    grantedAccess: z.array(accessCode).max(62).default([]),
    deniedAccess: z.array(accessCode).max(62).default([]),
    /** Written as the card's operator; defaults to who created the command, else "frontdesk". */
    operator: z.string().min(1).optional(),
    /** Ask the encoder for each card's serial number (kept in the job's details). */
    returnSerialNumbers: z.boolean().default(true),
    /** Guest names on print lines: ASCII (safe for every card printer) or Latin-1. */
    printCharset: z.enum(['ascii', 'latin1']).default('ascii'),
    ackTimeoutMs: milliseconds(10, 2000),
    cardTimeoutMs: milliseconds(100, 30000),
    nakRetries: z.number().int().min(0).max(10).default(3),
    busyRetries: z.number().int().min(0).max(20).default(5),
    busyBackoffMs: milliseconds(1, 1000),
    /** Probe with ENQ when a link is (re)opened; turn off for encoders that ignore ENQ. */
    probe: z.boolean().default(true),
    reconnectMinMs: milliseconds(1, 1000),
    reconnectMaxMs: milliseconds(1, 30000),
    /** After a crash, cut the cards that were not confirmed (default: report and let staff decide). */
    cutRemainingAfterCrash: z.boolean().default(false),
    maxKeys: z.number().int().min(1).max(100).default(10),
  })
  .superRefine((o, ctx) => {
    const need = (key: keyof typeof o, why: string) => {
      if (o[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `required ${why}` });
    };
    if (o.transport === 'serial') need('path', 'for transport serial (a /dev/serial/by-id/… path)');
    if (o.transport === 'tcp') {
      need('host', 'for transport tcp');
      need('port', 'for transport tcp');
    }
    if (o.transport === 'memory') need('name', 'for transport memory');
    if (o.reconnectMaxMs < o.reconnectMinMs) {
      ctx.addIssue({ code: 'custom', path: ['reconnectMaxMs'], message: 'must be ≥ reconnectMinMs' });
    }
  });

export type SaltoEncoderOptions = z.infer<typeof SaltoEncoderOptionsSchema>;

/** The transport the options describe. */
export function transportSpec(o: SaltoEncoderOptions): TransportSpec {
  switch (o.transport) {
    case 'serial':
      return {
        type: 'serial',
        path: o.path as string,
        baudRate: o.baudRate,
        dataBits: 8,
        stopBits: 1,
        parity: 'none',
      };
    case 'tcp':
      return {
        type: 'tcp',
        host: o.host as string,
        port: o.port as number,
        connectTimeoutMs: o.connectTimeoutMs,
      };
    case 'hid':
      return {
        type: 'hid',
        vendorId: o.vendorId,
        productId: o.productId,
        baudRate: o.baudRate,
        ...(o.serialNumber ? { serialNumber: o.serialNumber } : {}),
        ...(o.path ? { path: o.path } : {}),
      };
    case 'memory':
      return { type: 'memory', name: o.name as string };
  }
}
