import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { unreadableFile } from '../errors.js';
import type { HttpTlsOptions } from './http.js';

/**
 * The `tls:` block a driver of an HTTPS device accepts in its options (the Epson fiscal printer,
 * the IPP printers), and its translation into the HTTP stack's `HttpTlsOptions`: one schema and
 * one reading, so every device trusts a CA, pins a certificate or opts out the same way.
 */

const fingerprintSchema = z
  .string()
  .transform((s) => s.replace(/[\s:]/g, '').toUpperCase())
  .refine((s) => /^[0-9A-F]{64}$/.test(s), 'expected a SHA-256 fingerprint (64 hex digits, colons allowed)')
  .transform((s) => s.match(/../g)?.join(':') ?? s);

export const DeviceTlsSchema = z
  .object({
    /** PEM file of the CA (or the device's own self-signed certificate) to trust. */
    caFile: z.string().min(1).optional(),
    /** SHA-256 fingerprint of the device's certificate; pins it, CA or not. */
    fingerprint: fingerprintSchema.optional(),
    /** Name to check the certificate against when it does not match the address (IP). */
    serverName: z.string().min(1).optional(),
    /** Accept any certificate. Only by explicit opt-in; the driver logs it as a warning. */
    insecure: z.boolean().default(false),
  })
  .strict()
  .refine((t) => !(t.insecure && (t.caFile || t.fingerprint)), 'insecure excludes caFile and fingerprint');

export type DeviceTls = z.infer<typeof DeviceTlsSchema>;

/**
 * The HTTP stack's TLS options for a `tls:` block: a configured CA, a pinned SHA-256 certificate
 * fingerprint (checked on every connection, self-signed or not), or — only when `insecure` is set —
 * no verification; `{}` (the system's CAs) without a block. Rejects with CONFIG_INVALID when the
 * CA file cannot be read.
 */
export function httpTlsOptions(tls: DeviceTls | undefined): HttpTlsOptions {
  if (!tls) return {};
  const out: HttpTlsOptions = {};
  if (tls.caFile) {
    try {
      out.ca = readFileSync(tls.caFile);
    } catch (e) {
      throw unreadableFile(`the device CA file ${tls.caFile}`, e);
    }
  }
  if (tls.fingerprint) out.fingerprint256 = tls.fingerprint;
  if (tls.serverName) out.serverName = tls.serverName;
  if (tls.insecure) out.insecure = true;
  return out;
}
