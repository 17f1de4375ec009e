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
 * first one was cut short), and a frame longer than `MAX_FRAME_BYTES` is dropped whole. It holds
 * at most one frame (`MAX_FRAME_BYTES`) between calls, and finds the delimiters with
 * `Buffer.indexOf`, each byte of a chunk looked at a bounded number of times.
 */
export class RecordDecoder {
  /** The open frame's pieces, or undefined outside a frame. */
  private parts: Buffer[] | undefined;
  private length = 0;
  private outside = 0;
  private oversize = false;

  push(chunk: Uint8Array): DecodedEvent[] {
    const out: DecodedEvent[] = [];
    const data = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const flushOutside = () => {
      if (this.outside > 0) out.push({ kind: 'garbage', bytes: this.outside, reason: 'outside' });
      this.outside = 0;
    };
    // The next STX and ETX at or after a position, searched again only once passed (-1: none left).
    let stx = -2;
    let etx = -2;
    const next = (byte: number, cached: number, from: number) =>
      cached === -1 || cached >= from ? cached : data.indexOf(byte, from);
    let i = 0;
    while (i < data.length) {
      stx = next(STX, stx, i);
      if (this.parts === undefined) {
        if (stx < 0) {
          this.outside += data.length - i;
          break;
        }
        this.outside += stx - i;
        flushOutside();
        this.begin();
        i = stx + 1;
        continue;
      }
      etx = next(ETX, etx, i);
      const end = stx < 0 ? etx : etx < 0 ? stx : Math.min(stx, etx);
      this.append(data.subarray(i, end < 0 ? data.length : end));
      if (end < 0) break;
      if (end === stx) {
        if (!this.oversize && this.length > 0) {
          out.push({ kind: 'garbage', bytes: this.length, reason: 'unreadable' });
        }
        this.begin();
      } else {
        out.push(this.close());
      }
      i = end + 1;
    }
    flushOutside();
    // A frame still open keeps its own copy: the caller may reuse the chunk.
    if (this.parts) this.parts = this.parts.map((part) => Buffer.from(part));
    return out;
  }

  reset(): void {
    this.parts = undefined;
    this.length = 0;
    this.outside = 0;
    this.oversize = false;
  }

  private begin(): void {
    this.parts = [];
    this.length = 0;
    this.oversize = false;
  }

  private append(piece: Buffer): void {
    if (this.oversize || piece.length === 0) return;
    if (this.length + piece.length > MAX_FRAME_BYTES) {
      this.oversize = true;
      this.parts = [];
      this.length = 0;
      return;
    }
    this.parts?.push(piece);
    this.length += piece.length;
  }

  /** The ETX: the frame read, or why not. */
  private close(): DecodedEvent {
    const parts = this.parts ?? [];
    const oversize = this.oversize;
    const length = this.length;
    this.parts = undefined;
    this.length = 0;
    this.oversize = false;
    if (oversize) return { kind: 'garbage', bytes: MAX_FRAME_BYTES, reason: 'oversize' };
    const text = (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length)).toString(
      'latin1',
    );
    const parsed = parseRecordText(text);
    return parsed
      ? { kind: 'record', record: parsed, text }
      : { kind: 'garbage', bytes: length, reason: 'unreadable' };
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
