import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** A fresh self-signed certificate: PEM key and certificate, and its SHA-256 fingerprint. */
export interface SelfSigned {
  key: string;
  cert: string;
  /** `X509Certificate.fingerprint256`, the form a pinned-fingerprint option takes. */
  fingerprint: string;
}

/**
 * Makes a two-day self-signed P-256 certificate for `host` (CN and subjectAltName: a name, or an
 * IP address as the desk's LAN address) with the
 * `openssl` command line, writing key.pem and cert.pem into `dir`. Callers check the tool first
 * (`requireTool('openssl', …)`).
 */
export function selfSignedCertificate(dir: string, host: string): SelfSigned {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=${isIP(host) ? 'IP' : 'DNS'}:${host}`,
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  return { key, cert, fingerprint: new X509Certificate(cert).fingerprint256 };
}
