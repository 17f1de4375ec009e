import { describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeFrame,
  encodeMessage,
  FrameDecoder,
  lrc,
  MAX_FRAME_BYTES,
  showBytes,
} from '../../../drivers/salto-encoder/protocol.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('LRC', () => {
  it('is the XOR of the message bytes and ETX — worked example for |OV|1|', () => {
    // message = B3 4F('O') 56('V') B3 31('1') B3, then ETX 03
    //   03 ^ B3 = B0;  B0 ^ 4F = FF;  FF ^ 56 = A9;  A9 ^ B3 = 1A
    //   1A ^ 31 = 2B;  2B ^ B3 = 98                               → LRC = 0x98
    const message = Buffer.from([0xb3, 0x4f, 0x56, 0xb3, 0x31, 0xb3]);
    expect(lrc(message)).toBe(0x98);
    expect(hex(encodeFrame(['OV', '1']))).toBe('02b34f56b331b30398');
  });
});

describe('encodeFrame', () => {
  it('frames a CN1 request byte for byte', () => {
    const frame = encodeFrame([
      'CN1',
      'E1',
      'E',
      '101',
      '',
      '',
      '',
      '',
      '',
      '1400211126',
      '1100231126',
      'op',
      'Ann',
      '',
      '',
      '1',
    ]);
    const message = Buffer.from(
      '\xb3CN1\xb3E1\xb3E\xb3101\xb3\xb3\xb3\xb3\xb3\xb31400211126\xb31100231126\xb3op\xb3Ann\xb3\xb3\xb31\xb3',
      'latin1',
    );
    expect(hex(frame)).toBe(`02${hex(message)}03${lrc(message).toString(16).padStart(2, '0')}`);
    expect(frame[0]).toBe(0x02);
    expect(frame[frame.length - 2]).toBe(0x03);
    expect(showBytes(frame).startsWith('<STX>|CN1|E1|E|101|||||')).toBe(true);
  });

  it('sends Latin-1 bytes, one per character', () => {
    expect(hex(encodeMessage(['Città']))).toBe('b343697474e0b3');
  });

  it('refuses characters a field cannot carry (caller bug, not guest data)', () => {
    expect(() => encodeMessage(['a\u00b3b'])).toThrow(RangeError);
    expect(() => encodeMessage(['a\rb'])).toThrow(RangeError);
    expect(() => encodeMessage(['Łukasz'])).toThrow(RangeError);
  });
});

describe('decodeMessage', () => {
  it('splits on SEP and keeps empty fields', () => {
    expect(decodeMessage(Buffer.from('\xb3EG\xb3\xb3disk full\xb3', 'latin1'))).toEqual([
      'EG',
      '',
      'disk full',
    ]);
  });

  it('rejects a message that does not start and end with SEP', () => {
    expect(decodeMessage(Buffer.from('CN1\xb3', 'latin1'))).toBeUndefined();
    expect(decodeMessage(Buffer.from('\xb3CN1', 'latin1'))).toBeUndefined();
  });
});

describe('FrameDecoder', () => {
  const reply = encodeFrame(['CN1', 'E1', 'C0DE0001']);

  it('reassembles a frame fed one byte at a time', () => {
    const d = new FrameDecoder();
    const events = [...reply].flatMap((b) => d.push(Buffer.of(b)));
    expect(events).toEqual([{ type: 'frame', fields: ['CN1', 'E1', 'C0DE0001'], lrcOk: true, raw: reply }]);
  });

  it('reports garbage before STX separately and still finds the frame', () => {
    const d = new FrameDecoder();
    const events = d.push(Buffer.concat([Buffer.from([0x00, 0xff, 0x41]), reply]));
    expect(events.map((e) => e.type)).toEqual(['garbage', 'frame']);
    expect(events[0]).toEqual({ type: 'garbage', bytes: Buffer.from([0x00, 0xff, 0x41]) });
  });

  it('reads ACK, NAK and ENQ only outside frames (an LRC of 0x06 is not an ACK)', () => {
    // Find a field whose frame ends in the byte 0x06.
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
    const field = letters
      .flatMap((a) => letters.map((b) => a + b))
      .find((f) => lrc(encodeMessage([f])) === 0x06) as string;
    const frame = encodeFrame([field]);
    expect(frame[frame.length - 1]).toBe(0x06);
    const d = new FrameDecoder();
    expect(d.push(Buffer.concat([Buffer.of(0x06, 0x15, 0x05), frame])).map((e) => e.type)).toEqual([
      'ack',
      'nak',
      'enq',
      'frame',
    ]);
  });

  it('flags a bad LRC and accepts 0x0D in its place', () => {
    const bad = Buffer.from(reply);
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 0x01;
    const skip = Buffer.from(reply);
    skip[skip.length - 1] = 0x0d;
    const d = new FrameDecoder();
    const [a, b] = d.push(Buffer.concat([bad, skip]));
    expect(a).toMatchObject({ type: 'frame', lrcOk: false });
    expect(b).toMatchObject({ type: 'frame', lrcOk: true, fields: ['CN1', 'E1', 'C0DE0001'] });
  });

  it('restarts on an STX inside a frame (the cut-off start is garbage)', () => {
    const d = new FrameDecoder();
    const events = d.push(Buffer.concat([Buffer.from([0x02, 0xb3, 0x43]), reply]));
    expect(events.map((e) => e.type)).toEqual(['garbage', 'frame']);
  });

  it('drops an endless frame as noise and recovers', () => {
    const d = new FrameDecoder();
    const noise = Buffer.concat([Buffer.of(0x02), Buffer.alloc(MAX_FRAME_BYTES + 10, 0x41)]);
    const events = d.push(Buffer.concat([noise, reply]));
    expect(events.at(-1)).toMatchObject({ type: 'frame', lrcOk: true });
    expect(events.some((e) => e.type === 'garbage')).toBe(true);
  });

  it('reset() forgets a half frame', () => {
    const d = new FrameDecoder();
    d.push(reply.subarray(0, 5));
    d.reset();
    expect(d.push(reply.subarray(5))).toEqual([{ type: 'garbage', bytes: reply.subarray(5) }]);
  });
});
