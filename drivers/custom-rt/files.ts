import type { CustomLink } from './link.js';
import { directIo } from './xml.js';

/**
 * Daily closures waiting to go to the tax agency: native 1514 with DOCTIPO 0 answers the closures
 * sent but failed (4 digits), waiting to be sent (4) and exported through the browser (4)
 * (directIO manual rev 6.00 p.81). The answer may start with the command's 4-byte echo (p.20) and
 * repeat the DOCTIPO byte; both forms are read. Undefined when the printer does not answer it.
 */
export function parseFilesWaiting(
  buffer: string | undefined,
): { failed: number; waiting: number } | undefined {
  let raw = (buffer ?? '').trim();
  if (raw.startsWith('1514') && raw.length >= 16) raw = raw.slice(4);
  if (raw.length === 13) raw = raw.slice(1);
  if (!/^\d{12}$/.test(raw)) return undefined;
  return { failed: Number(raw.slice(0, 4)), waiting: Number(raw.slice(4, 8)) };
}

export async function readFilesWaiting(link: CustomLink, signal?: AbortSignal) {
  const response = await link.exchange(directIo('1514', '0'), signal);
  return response?.success ? parseFilesWaiting(response.addInfo.responseBuf) : undefined;
}
