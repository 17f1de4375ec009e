/**
 * The simulated RT's own reading of a refund or void reference line and of its amount fields,
 * written from the public sources rather than taken from the driver it is tested against:
 *
 * - `printRecMessage messageType="4"` first in the document: `REFUND zzzz nnnn ddMMyyyy serial`
 *   or `VOID …` — fiskaltrust `scu-it` `Utilities/EpsonCommandFactory.cs`
 *   `CreateRefundRequestContent` / `CreateVoidRequestContent` (`{Z:D4} {doc:D4} {date:ddMMyyyy}
 *   {serial}`), Microsoft EpsonFP90IIISample `DocumentBuilder.cs` (the same format in its
 *   comment), 721377/procassa `lib/epsonxml.js`. The serial is the emitting printer's, eleven
 *   characters (the 1387 record's PRINTER SN field, fiskaltrust `Models/LastEmittedDocStatus.cs`);
 *   a refund whose original is not documented reads `REFUND 0000 0000 <today> ND` (fiskaltrust
 *   `EpsonRTPrinterSCU.cs`).
 * - Amounts: nine digits of cents (the 1387 record's TOTAL DOC AMOUNT, 9 bytes, same file); a
 *   larger one is refused with status 20 (fiskaltrust `Models/ErrorInfoFactory.cs`).
 */

export interface SimReference {
  kind: 'REFUND' | 'VOID';
  z: number;
  doc: number;
  /** ddMMyyyy as written. */
  date: string;
  serial: string;
}

/** 9,999,999.99: nine digits of cents. */
export const SIM_MAX_CENTS = 999_999_999;

/** Reads a reference line; undefined when it is not one. */
export function readReference(text: string): SimReference | undefined {
  const m = /^(REFUND|VOID) (\d{4}) (\d{4}) (\d{8}) ([0-9A-Z]{11}|ND)$/.exec(text.trim());
  if (!m) return undefined;
  return {
    kind: m[1] as SimReference['kind'],
    z: Number(m[2]),
    doc: Number(m[3]),
    date: m[4] as string,
    serial: m[5] as string,
  };
}
