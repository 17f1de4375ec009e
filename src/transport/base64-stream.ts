/**
 * Base64 decoded as it arrives, in pieces, into parts of at most `partBytes`: a document of tens
 * of MB never exists as Base64 text, nor as one more buffer than its decoded bytes. Accepts what
 * `base64Length(text, 'line-breaks')` accepts — the standard alphabet, CR and LF anywhere, at most
 * two `=` and only at the end — and decodes it as `Buffer.from(text, 'base64')` does (a lone
 * trailing sextet carries no byte and is dropped). Anything else makes it `valid: false`, and no
 * more bytes are kept.
 */

const SEXTET = new Int8Array(256).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  SEXTET[c.charCodeAt(0)] = i;
const CR = 0x0d;
const LF = 0x0a;
const PAD = 0x3d;

export interface DecodedBytes {
  /**
   * The decoded bytes, in order, each part read when it is iterated (the journal's copy reads
   * one part at a time from disk). Empty when not valid.
   */
  parts: Iterable<Buffer>;
  /** Their total length. */
  bytes: number;
  /** False when the text was not Base64 (nothing is kept then). */
  valid: boolean;
}

export class Base64StreamDecoder {
  private readonly parts: Buffer[] = [];
  private part: Buffer | undefined;
  private used = 0;
  private total = 0;
  private acc = 0;
  private sextets = 0;
  private padding = 0;
  private ok = true;

  constructor(private readonly partBytes = 256 * 1024) {}

  /** One character code of the text (a byte, or a char code from a JSON escape). */
  push(code: number): void {
    if (!this.ok || code === CR || code === LF) return;
    if (code === PAD) {
      if (++this.padding > 2) this.fail();
      return;
    }
    const value = code < 256 ? (SEXTET[code] as number) : -1;
    if (value < 0 || this.padding > 0) {
      this.fail();
      return;
    }
    this.acc = (this.acc << 6) | value;
    if (++this.sextets === 4) {
      this.byte(this.acc >>> 16);
      this.byte((this.acc >>> 8) & 0xff);
      this.byte(this.acc & 0xff);
      this.acc = 0;
      this.sextets = 0;
    }
  }

  /** The text ended: the last quantum is decoded and the parts are handed over. */
  finish(): DecodedBytes {
    if (this.ok && this.sextets >= 2) {
      const acc = this.acc << (6 * (4 - this.sextets));
      this.byte(acc >>> 16);
      if (this.sextets === 3) this.byte((acc >>> 8) & 0xff);
    }
    if (!this.ok) return { parts: [], bytes: 0, valid: false };
    if (this.part && this.used > 0) this.parts.push(this.part.subarray(0, this.used));
    this.part = undefined;
    return { parts: this.parts, bytes: this.total, valid: true };
  }

  private byte(value: number): void {
    if (!this.part || this.used === this.part.length) {
      if (this.part) this.parts.push(this.part);
      this.part = Buffer.allocUnsafe(this.partBytes);
      this.used = 0;
    }
    this.part[this.used++] = value;
    this.total++;
  }

  private fail(): void {
    this.ok = false;
    this.parts.length = 0;
    this.part = undefined;
  }
}
