/**
 * Framing of the "PMS industry standard" protocol spoken by Salto lock servers and encoders
 * (Onity uses the same command names): pure functions, no I/O.
 *
 *   frame   = STX message ETX LRC
 *   message = SEP field SEP field … SEP          (SEP = 0xB3, text in Latin-1)
 *   LRC     = XOR of every byte of message and of ETX (STX excluded)
 *
 * A sender may put 0x0D (CR) in place of the LRC to skip the check; we accept that from a peer
 * and always send a real LRC. Control bytes outside frames: ENQ "are you ready?", answered ACK
 * (ready / accepted) or NAK (not ready / rejected, resend).
 *
 * Learnt from the protocol as used by the open-source clients bookingexperts/salto (Ruby) and
 * coucounco/salto (PHP); the code here is ours.
 */

export const STX = 0x02;
export const ETX = 0x03;
export const ENQ = 0x05;
export const ACK = 0x06;
export const NAK = 0x15;
export const SEP = 0xb3;
export const LRC_SKIP = 0x0d;

/** Frames longer than this are line noise, not protocol (the longest command is ~300 bytes). */
export const MAX_FRAME_BYTES = 4096;

/** XOR of `message` bytes and ETX. */
export function lrc(message: Uint8Array): number {
  let value = ETX;
  for (const byte of message) value ^= byte;
  return value;
}

/**
 * Builds `SEP f0 SEP f1 … SEP` from fields that are already wire-safe Latin-1 (see `text.ts`).
 * Throws RangeError on a character the frame cannot carry (control bytes, SEP, beyond Latin-1):
 * that is a bug in the caller, never a guest's name.
 */
export function encodeMessage(fields: readonly string[]): Buffer {
  const bytes: number[] = [SEP];
  for (const field of fields) {
    for (const ch of field) {
      const code = ch.codePointAt(0) as number;
      if (code < 0x20 || code === 0x7f || code === SEP || code > 0xff) {
        throw new RangeError(`character U+${code.toString(16).padStart(4, '0')} cannot travel in a field`);
      }
      bytes.push(code);
    }
    bytes.push(SEP);
  }
  return Buffer.from(bytes);
}

/** `STX message ETX LRC`. */
export function encodeFrame(fields: readonly string[]): Buffer {
  const message = encodeMessage(fields);
  return Buffer.concat([Buffer.of(STX), message, Buffer.of(ETX, lrc(message))]);
}

/**
 * Splits a message into fields. Returns undefined unless it starts and ends with SEP. An empty
 * message field becomes "" (the protocol's "no value").
 */
export function decodeMessage(message: Uint8Array): string[] | undefined {
  if (message.length < 2 || message[0] !== SEP || message[message.length - 1] !== SEP) return undefined;
  const fields: string[] = [];
  let start = 1;
  for (let i = 1; i < message.length; i++) {
    if (message[i] === SEP) {
      fields.push(Buffer.from(message.subarray(start, i)).toString('latin1'));
      start = i + 1;
    }
  }
  return fields;
}

/** What the byte stream carried, in order. */
export type WireEvent =
  | { type: 'ack' }
  | { type: 'nak' }
  | { type: 'enq' }
  /** A complete frame; `lrcOk` is false when the check byte did not match (and was not 0x0D). */
  | { type: 'frame'; fields: string[]; lrcOk: boolean; raw: Buffer }
  /** Bytes that belong to no frame (line noise, a frame cut short); dropped. */
  | { type: 'garbage'; bytes: Buffer };

type State = 'idle' | 'message' | 'lrc';

/**
 * Incremental decoder: feed it chunks as they arrive (replies split across reads, garbage before
 * STX) and it returns the events completed so far. ACK/NAK/ENQ count only outside a frame; an STX
 * inside a frame restarts it (the first part becomes garbage).
 *
 * Bounded whatever the peer sends: a frame is kept up to `MAX_FRAME_BYTES` (a longer one — bytes
 * without ETX forever — becomes garbage and the decoder waits for the next STX), and garbage is
 * reported in pieces of at most `MAX_FRAME_BYTES`, so it holds at most two such buffers between
 * calls and one call returns about one event per `MAX_FRAME_BYTES` of input.
 */
export class FrameDecoder {
  private state: State = 'idle';
  private readonly message = Buffer.alloc(MAX_FRAME_BYTES);
  private messageLength = 0;
  private readonly noise = Buffer.alloc(MAX_FRAME_BYTES);
  private noiseLength = 0;

  /** Bytes held between calls (a partial frame and unreported garbage); never above 2 × MAX_FRAME_BYTES. */
  get pendingBytes(): number {
    return this.messageLength + this.noiseLength;
  }

  push(chunk: Uint8Array): WireEvent[] {
    const events: WireEvent[] = [];
    for (const byte of chunk) {
      if (this.state === 'idle') {
        if (byte === STX) {
          this.flushNoise(events);
          this.state = 'message';
          this.messageLength = 0;
        } else if (byte === ACK || byte === NAK || byte === ENQ) {
          this.flushNoise(events);
          events.push({ type: byte === ACK ? 'ack' : byte === NAK ? 'nak' : 'enq' });
        } else {
          this.addNoise(events, byte);
        }
      } else if (this.state === 'message') {
        if (byte === ETX) {
          this.state = 'lrc';
        } else if (byte === STX) {
          this.dropMessage(events);
          this.flushNoise(events);
        } else if (this.messageLength >= MAX_FRAME_BYTES) {
          // Too long to be a frame: garbage, and the next STX starts again.
          this.dropMessage(events);
          this.addNoise(events, byte);
          this.state = 'idle';
        } else {
          this.message[this.messageLength++] = byte;
        }
      } else {
        const message = Buffer.from(this.message.subarray(0, this.messageLength));
        const raw = Buffer.concat([Buffer.of(STX), message, Buffer.of(ETX, byte)]);
        const fields = decodeMessage(message);
        this.state = 'idle';
        this.messageLength = 0;
        if (fields === undefined) {
          for (const b of raw) this.addNoise(events, b);
          this.flushNoise(events);
        } else {
          events.push({ type: 'frame', fields, lrcOk: byte === LRC_SKIP || byte === lrc(message), raw });
        }
      }
    }
    if (this.state === 'idle') this.flushNoise(events);
    return events;
  }

  /** Forgets a partial frame (after a reconnect). */
  reset(): void {
    this.state = 'idle';
    this.messageLength = 0;
    this.noiseLength = 0;
  }

  private addNoise(events: WireEvent[], byte: number): void {
    if (this.noiseLength >= MAX_FRAME_BYTES) this.flushNoise(events);
    this.noise[this.noiseLength++] = byte;
  }

  private flushNoise(events: WireEvent[]): void {
    if (this.noiseLength === 0) return;
    events.push({ type: 'garbage', bytes: Buffer.from(this.noise.subarray(0, this.noiseLength)) });
    this.noiseLength = 0;
  }

  /** The partial frame so far (with its STX) becomes garbage. */
  private dropMessage(events: WireEvent[]): void {
    this.addNoise(events, STX);
    for (let i = 0; i < this.messageLength; i++) this.addNoise(events, this.message[i] as number);
    this.messageLength = 0;
  }
}

/**
 * What a log line may say about bytes on the encoder's wire: a control byte by name, a frame by
 * its command and length — never its fields, which carry the guest's name, the rooms and the
 * dates (issue 27, finding 9: debug-level encoder frames put guest names in the journal of the
 * system and in support bundles). E.g. `frame CN1, 58 bytes`, `ACK`, `3 bytes`.
 */
export function frameSummary(bytes: Uint8Array): string {
  const names: Record<number, string> = { [ENQ]: 'ENQ', [ACK]: 'ACK', [NAK]: 'NAK' };
  if (bytes.length === 1 && names[bytes[0] as number]) return names[bytes[0] as number] as string;
  const stx = bytes.indexOf(STX);
  if (stx >= 0) {
    // The command is the first field: STX, SEP, command, SEP (Salto's industry-standard frames).
    let from = stx + 1;
    if (bytes[from] === SEP) from++;
    let command = '';
    for (let i = from; i < bytes.length && i < from + 4; i++) {
      const b = bytes[i] as number;
      if (b < 0x30 || b > 0x5a) break;
      command += String.fromCharCode(b);
    }
    return `frame ${command || '?'}, ${bytes.length} bytes`;
  }
  return `${bytes.length} bytes`;
}

/** How many bytes `showBytes` shows; the rest is counted. */
const SHOWN_BYTES = 512;

/**
 * Shows a frame's bytes (tests and the simulator's own diagnostics; never a log line of the
 * driver, which uses `frameSummary`): control bytes by name, SEP as `|`; at most `SHOWN_BYTES` bytes,
 * then how many more there were (a peer sending garbage forever makes bounded log lines).
 */
export function showBytes(bytes: Uint8Array): string {
  const more = bytes.length - SHOWN_BYTES;
  if (more > 0) return `${showBytes(bytes.subarray(0, SHOWN_BYTES))}…(+${more} bytes)`;
  const names: Record<number, string> = {
    [STX]: '<STX>',
    [ETX]: '<ETX>',
    [ENQ]: '<ENQ>',
    [ACK]: '<ACK>',
    [NAK]: '<NAK>',
    [SEP]: '|',
  };
  let out = '';
  for (const b of bytes) {
    out +=
      names[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `<${b.toString(16).padStart(2, '0')}>`);
  }
  return out;
}
