import { createHash } from 'node:crypto';

/**
 * The `IdCmd` a document's nodes carry. Any node may carry one, alphanumeric and at most 36
 * bytes, and once given every later answer echoes the last one as `lastIdCmd` (XML protocol
 * manual rev 2.00 p.25): the printer itself says which command it took last.
 *
 * `kind` (C sale, R refund, V void, X/Z report) + `base` (the command id when it is 1–30
 * letters and digits, else the first 30 hex digits of its SHA-256) + the attempt (one digit, so
 * that a resend proven necessary is told from the first send) + the phase: `B` on the begin node,
 * `E` on the end node. 33 characters at most, only [A-Za-z0-9] (the manual says alphanumeric, so
 * a UUID's hyphens stay out).
 */
export type DocumentKind = 'C' | 'R' | 'V' | 'X' | 'Z';

export interface IdPair {
  begin: string;
  end: string;
}

export function idCmdBase(commandId: string): string {
  if (/^[A-Za-z0-9]{1,30}$/.test(commandId)) return commandId;
  return createHash('sha256').update(commandId).digest('hex').slice(0, 30);
}

export function idCmds(kind: DocumentKind, commandId: string, attempt: number): IdPair {
  const stem = `${kind}${idCmdBase(commandId)}${Math.abs(Math.trunc(attempt)) % 10}`;
  return { begin: `${stem}B`, end: `${stem}E` };
}
