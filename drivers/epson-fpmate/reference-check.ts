import type { DocumentReference } from '../fiscal-it/reference.js';
import type { PrinterLink } from './link.js';
import { pad4 } from './protocol.js';
import { directIoXml } from './xml-build.js';

/**
 * Asking the printer, before printing, whether a receipt may be refunded or voided:
 * `directIO command="9205"` with `data` = `1` (refund) or `2` (void), the printer's serial
 * (11 characters), the original's date `DDMMYYYY`, its document number (4 digits) and its Z number
 * (4 digits) — 721377/procassa `lib/epsonxml.js` `checkPerResoAnnullo` ("the first digit makes
 * the difference: 1 = refund, 2 = void; then NNAAANNNNNN serial, DDMMYYYY, NNNN receipt, ZZZZ
 * Z report") and linokoetting/iconic.mytrade.gutenbergPrinter-epson
 * `refund/RefundCommands.java` `isRefundableDocument`, `rtvoid/VoidCommands.java`
 * `isVoidableDocument`, which build the same string. Both read the answer's first character:
 * `0` or `1` means the printer will take the document; anything else means it will not.
 *
 * A printer that does not know the command answers PRINTER ERROR 16 (older firmware); then, as
 * when the check cannot be read, the document is sent and the printer checks the reference
 * itself (statuses 39–42).
 */
export const REFERENCE_CHECK_COMMAND = '9205';

export type ReferenceCheck = 'allowed' | 'refused' | 'not-checked';

/** The 9205 `data` for a reference (`serial` padded to 11 characters). */
export function referenceCheckData(ref: DocumentReference): string {
  const flag = ref.kind === 'VOID' ? '2' : '1';
  return `${flag}${ref.serial.padEnd(11, ' ').slice(0, 11)}${ref.date}${pad4(ref.doc)}${pad4(ref.z)}`;
}

/** Reads a 9205 answer's `responseData`: allowed for `0`/`1` first, refused otherwise. */
export function readReferenceAnswer(responseData: string | undefined): 'allowed' | 'refused' {
  const first = (responseData ?? '').charAt(0);
  return first === '0' || first === '1' ? 'allowed' : 'refused';
}

/** Asks the printer about `ref`; never throws. */
export async function checkReference(
  link: PrinterLink,
  ref: DocumentReference,
  signal?: AbortSignal,
): Promise<ReferenceCheck> {
  const response = await link.exchange(directIoXml(REFERENCE_CHECK_COMMAND, referenceCheckData(ref)), signal);
  if (!response?.success) return 'not-checked';
  return readReferenceAnswer(response.addInfo.responseData);
}
