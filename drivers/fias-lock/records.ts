/**
 * FIAS records on the wire, as Oracle's "IFC8 FIAS Interface Specification" 2.20.23 defines them
 * (public copy: repository atom-tr/fias-integration; "p." below is the printed page number):
 *
 * - A record is `RecordID|` followed by `FieldIDvalue|` for each field; every field, the last one
 *   too, ends with `|`; the record id carries no data (§4 "Field types" p.15, §6 p.17). A field id
 *   is two characters (`RN`, `G#`, `$2`); field order is not significant and unknown fields are
 *   skipped (§3 p.12, p.15, p.18). A field id followed at once by `|` is present and blank (p.15).
 * - On TCP/IP every record travels as STX (0x02) + record + ETX (0x03), with no LRC and no
 *   ACK/NAK: those belong to the serial line only (§7 "TCP/IP — Framing", p.89–90; serial p.85–88).
 * - Data is printable ASCII, or single-byte "extended ASCII" for other alphabets; control bytes
 *   never appear in data (p.12, p.84–85). `|` cannot be escaped, so it never appears in data.
 * - The general maximum length of a record is 2000 characters (LD table, p.19).
 *
 * This module is the codec only (shared by the driver and its lock-server simulator); what a
 * record means is the link's and the driver's business.
 */

export const STX = 0x02;
export const ETX = 0x03;
/** Field separator, after the record id and after every field. */
export const SEPARATOR = '|';

/**
 * The longest frame the decoder keeps: the specification's 2000 characters (p.19) with a margin
 * for lock servers that exceed it; anything longer is dropped and the decoder waits for the next
 * STX.
 */
export const MAX_FRAME_BYTES = 4096;

/** One record: its id (`KR`, `LS` …) and its fields in the order they came. */
export interface FiasRecord {
  type: string;
  fields: ReadonlyArray<readonly [id: string, value: string]>;
}

/** The first value of field `id`, or undefined when the record has no such field. */
export function fieldOf(record: FiasRecord, id: string): string | undefined {
  return record.fields.find(([f]) => f === id)?.[1];
}

/** A record made of fields given as an object (keys are field ids), in the object's order. */
export function record(type: string, fields: Readonly<Record<string, string>> = {}): FiasRecord {
  return { type, fields: Object.entries(fields) };
}

/** True when `value` can travel as a field value: no `|`, no control byte. */
export function isFieldSafe(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control bytes are what is refused
  return !/[|\u0000-\u001f\u007f]/.test(value);
}

/** `KR|WS1|KC2|`: the record's text without framing. Throws RangeError on an unsafe value. */
export function recordText(r: FiasRecord): string {
  if (!/^[A-Z0-9]{2}$/.test(r.type)) throw new RangeError(`bad record id ${JSON.stringify(r.type)}`);
  let text = `${r.type}${SEPARATOR}`;
  for (const [id, value] of r.fields) {
    if (id.length !== 2 || !isFieldSafe(id) || !isFieldSafe(value)) {
      throw new RangeError(`field ${JSON.stringify(id)} cannot carry ${JSON.stringify(value)}`);
    }
    text += `${id}${value}${SEPARATOR}`;
  }
  return text;
}

/**
 * STX + record + ETX, one byte per character (Latin-1: the specification's single-byte code
 * page). A character beyond Latin-1 becomes `?`: callers make text field-safe first.
 */
export function encodeRecord(r: FiasRecord): Buffer {
  const text = recordText(r).replace(/[^\x20-\xff]/g, '?');
  return Buffer.concat([Buffer.of(STX), Buffer.from(text, 'latin1'), Buffer.of(ETX)]);
}

/**
 * Reads a record's text (framing removed). Tolerant, as the specification asks of a receiver and
 * as lock servers write: a missing last `|`, CR/LF or spaces around the text, empty fields between
 * separators. Undefined when the text does not start with a two-character record id.
 */
export function parseRecordText(text: string): FiasRecord | undefined {
  const parts = text.replace(/^[\s\r\n]+|[\s\r\n]+$/g, '').split(SEPARATOR);
  const type = (parts[0] ?? '').trim();
  if (!/^[A-Z0-9]{2}$/.test(type)) return undefined;
  const fields: Array<[string, string]> = [];
  for (const part of parts.slice(1)) {
    if (part.length < 2) continue;
    fields.push([part.slice(0, 2), part.slice(2)]);
  }
  return { type, fields };
}

export type DecodedEvent =
  | { kind: 'record'; record: FiasRecord; text: string }
  /** Bytes outside any frame (CR/LF after ETX, a serial LRC or ACK, line noise), or a frame too long or unreadable. */
  | { kind: 'garbage'; bytes: number; reason: 'outside' | 'oversize' | 'unreadable' };

/**
 * Splits a byte stream into records. The specification only says to take the first complete
 * STX…ETX block and keep the rest until another block is complete (p.89–90); beyond that:
 * bytes outside a frame are dropped, an STX inside an open frame starts the frame again (the
 * first one was cut short), and a frame longer than `MAX_FRAME_BYTES` is dropped whole.
 */
export class RecordDecoder {
  private frame: number[] | undefined;
  private outside = 0;
  private oversize = false;

  push(chunk: Uint8Array): DecodedEvent[] {
    const out: DecodedEvent[] = [];
    const flushOutside = () => {
      if (this.outside > 0) out.push({ kind: 'garbage', bytes: this.outside, reason: 'outside' });
      this.outside = 0;
    };
    for (const byte of chunk) {
      if (byte === STX) {
        flushOutside();
        if (this.frame && this.frame.length > 0) {
          out.push({ kind: 'garbage', bytes: this.frame.length, reason: 'unreadable' });
        }
        this.frame = [];
        this.oversize = false;
        continue;
      }
      if (this.frame === undefined) {
        this.outside++;
        continue;
      }
      if (byte === ETX) {
        const bytes = this.frame;
        this.frame = undefined;
        if (this.oversize) {
          out.push({ kind: 'garbage', bytes: MAX_FRAME_BYTES, reason: 'oversize' });
          continue;
        }
        const text = Buffer.from(bytes).toString('latin1');
        const parsed = parseRecordText(text);
        if (parsed) out.push({ kind: 'record', record: parsed, text });
        else out.push({ kind: 'garbage', bytes: bytes.length, reason: 'unreadable' });
        continue;
      }
      if (this.oversize) continue;
      if (this.frame.length >= MAX_FRAME_BYTES) {
        this.oversize = true;
        this.frame = [];
        continue;
      }
      this.frame.push(byte);
    }
    flushOutside();
    return out;
  }

  reset(): void {
    this.frame = undefined;
    this.outside = 0;
    this.oversize = false;
  }
}

/**
 * What a log line may say about a record: its type and length, never its fields (a `KR` carries
 * the guest's name, the rooms and the dates; issue 27, finding 9). E.g. `KR record, 74 bytes`.
 */
export function recordSummary(r: FiasRecord): string {
  // STX, the two-character type, `|`, each field with its `|`, ETX: as encodeRecord writes it.
  const length = 5 + r.fields.reduce((sum, [id, value]) => sum + id.length + value.length + 1, 0);
  return `${/^[A-Z0-9]{2}$/.test(r.type) ? r.type : '?'} record, ${length} bytes`;
}
