import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  encodeFrame,
  FrameDecoder,
  MAX_FRAME_BYTES,
  SEP,
  type WireEvent,
} from '../../../drivers/salto-encoder/protocol.js';
import { parseReply, replyError } from '../../../drivers/salto-encoder/replies.js';
import { AgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';

/**
 * Property-based checks of the encoder's framing (issue 13, "Fuzzing in CI"): whatever bytes the
 * port delivers, in whatever pieces, the decoder never throws, holds at most two frames' worth,
 * reads the same frames however the stream is cut, and finds every well-formed frame; a reply's
 * fields, whatever they are, become a result or an AgentError with bounded Notes. Seeded, a few
 * thousand runs of bounded inputs.
 */
const SEED = 0x5a170;
const RUNS = 3000;

/** Bytes a port may deliver: control bytes the protocol knows, weighted up, and anything else. */
const wireByte = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(0x02, 0x03, 0x05, 0x06, 0x15, SEP, 0x0d) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 255 }) },
);
const stream = fc.array(wireByte, { maxLength: 3 * MAX_FRAME_BYTES }).map((bytes) => Buffer.from(bytes));
/** Cut points inside a stream. */
const cuts = fc.array(fc.nat(), { maxLength: 12 });

function pieces(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((p) => (bytes.length ? p % bytes.length : 0)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let start = 0;
  for (const p of points) {
    out.push(bytes.subarray(start, p));
    start = p;
  }
  out.push(bytes.subarray(start));
  return out;
}

/** The events that do not depend on how garbage is split, and the garbage's total size. */
function summary(events: WireEvent[]): { shown: string[]; garbage: number } {
  let garbage = 0;
  const shown: string[] = [];
  for (const e of events) {
    if (e.type === 'garbage') garbage += e.bytes.length;
    else shown.push(e.type === 'frame' ? `frame:${e.lrcOk}:${e.fields.join('|')}` : e.type);
  }
  return { shown, garbage };
}

/** Fields the encoder itself could send: printable Latin-1 without the separator. */
const field = fc
  .array(
    fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f && c !== SEP),
    { maxLength: 30 },
  )
  .map((codes) => String.fromCharCode(...codes));

describe('fuzzing the encoder frame decoder', () => {
  it('any bytes, in any pieces: no throw, bounded, the same frames however the stream is cut', () => {
    fc.assert(
      fc.property(stream, cuts, (bytes, at) => {
        const whole = new FrameDecoder();
        const one = summary(whole.push(bytes));
        const cut = new FrameDecoder();
        const events: WireEvent[] = [];
        for (const piece of pieces(bytes, at)) {
          events.push(...cut.push(piece));
          if (cut.pendingBytes > 2 * MAX_FRAME_BYTES) return false;
        }
        const many = summary(events);
        return (
          whole.pendingBytes <= 2 * MAX_FRAME_BYTES &&
          JSON.stringify(one.shown) === JSON.stringify(many.shown) &&
          one.garbage === many.garbage &&
          whole.pendingBytes === cut.pendingBytes
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a well-formed frame after any garbage and a reset is read exactly', () => {
    fc.assert(
      fc.property(stream, fc.array(field, { minLength: 1, maxLength: 8 }), (garbage, fields) => {
        const decoder = new FrameDecoder();
        decoder.push(garbage);
        decoder.reset();
        const events = decoder.push(encodeFrame(fields));
        const frame = events.find((e) => e.type === 'frame');
        return (
          frame?.type === 'frame' && frame.lrcOk && JSON.stringify(frame.fields) === JSON.stringify(fields)
        );
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing the encoder’s replies', () => {
  it('any fields: a result, or an AgentError whose Notes stay short', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(field, fc.string({ maxLength: 5000 }), fc.constantFrom('CN1', 'CC2', 'EG', 'EP', 'TD')),
          {
            maxLength: 8,
          },
        ),
        (fields) => {
          const reply = parseReply(fields);
          if (reply.ok) return Array.isArray(reply.serials);
          const error = replyError(reply, { rooms: ['101'], card: 1, total: 2 });
          return (
            error instanceof AgentError && english(error.notes).length <= 300 && error.message.length <= 400
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
