import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ACK,
  ENQ,
  encodeFrame,
  FrameDecoder,
  MAX_FRAME_BYTES,
  STX,
  showBytes,
} from '../../../drivers/salto-encoder/protocol.js';
import { replyError } from '../../../drivers/salto-encoder/replies.js';
import { EncoderSimulator } from '../../../drivers/salto-encoder/simulator/index.js';
import { silentLogger } from '../../../src/log.js';
import { english } from '../../../src/messages/render.js';
import { createTransportFactory } from '../../../src/transport/factory.js';
import { MemoryHub } from '../../../src/transport/testing/memory.js';
import { keyJob, makeDriver, run } from './rig.js';

/**
 * Issue 13.2 on the encoder path: whatever a device (or anything at its port) sends — bytes
 * without ETX forever, garbage forever, an error text of any length — memory stays bounded, the
 * decoder finds the next good frame, and the job ends with an AgentError; nothing ends the process.
 */

const reply = encodeFrame(['CN1', 'E1', 'C0DE0001']);
const CHUNK = 64 * 1024;

function feed(decoder: FrameDecoder, bytes: Buffer): { events: number; maxPending: number } {
  let events = 0;
  let maxPending = 0;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    events += decoder.push(bytes.subarray(i, i + CHUNK)).length;
    maxPending = Math.max(maxPending, decoder.pendingBytes);
  }
  return { events, maxPending };
}

describe('FrameDecoder under hostile input', () => {
  it('10 MB after an STX without ETX: holds at most one frame, then resynchronises on the next STX', () => {
    const decoder = new FrameDecoder();
    const endless = Buffer.concat([Buffer.of(STX), Buffer.alloc(10 * 1024 * 1024, 0x41)]);
    const { events, maxPending } = feed(decoder, endless);
    expect(maxPending).toBeLessThanOrEqual(2 * MAX_FRAME_BYTES);
    // Garbage comes in pieces of at most MAX_FRAME_BYTES: about one event per piece, no more.
    expect(events).toBeLessThanOrEqual(Math.ceil(endless.length / MAX_FRAME_BYTES) + 1);
    expect(decoder.push(reply).at(-1)).toMatchObject({
      type: 'frame',
      lrcOk: true,
      fields: ['CN1', 'E1', 'C0DE0001'],
    });
    expect(decoder.pendingBytes).toBe(0);
  });

  it('4 MB of random garbage (STX, ETX and all) in one chunk: bounded, and the next frame is read', () => {
    const decoder = new FrameDecoder();
    const garbage = randomBytes(4 * 1024 * 1024);
    const events = decoder.push(garbage);
    expect(decoder.pendingBytes).toBeLessThanOrEqual(2 * MAX_FRAME_BYTES);
    for (const event of events) {
      if (event.type === 'garbage') expect(event.bytes.length).toBeLessThanOrEqual(MAX_FRAME_BYTES);
      if (event.type === 'frame') expect(event.raw.length).toBeLessThanOrEqual(MAX_FRAME_BYTES + 3);
    }
    // Whatever state the garbage left it in, an STX starts over.
    const after = decoder.push(reply);
    expect(after.at(-1)).toMatchObject({ type: 'frame', fields: ['CN1', 'E1', 'C0DE0001'] });
  });

  it('a debug line shows at most 512 bytes of a chunk', () => {
    const shown = showBytes(Buffer.alloc(1024 * 1024, 0x41));
    expect(shown.length).toBeLessThan(600);
    expect(shown).toMatch(/…\(\+1048064 bytes\)$/);
  });

  it('an error reply’s text of 4,000 characters reaches the Notes clipped', () => {
    const error = replyError(
      { ok: false, code: 'EG', encoderId: 'E1', text: 'x'.repeat(4000) },
      { rooms: ['101'], card: 1, total: 1 },
    );
    expect(english(error.notes).length).toBeLessThan(250);
    expect(String(error.details.replyText).length).toBeLessThanOrEqual(160);
    const unknown = replyError(
      { ok: false, code: 'Z'.repeat(4000), encoderId: 'E1', text: '' },
      { rooms: ['101'], card: 1, total: 1 },
    );
    expect(unknown.message.length).toBeLessThan(400);
  });
});

describe('salto-encoder driver against a device that floods', () => {
  it('answers a request with ACK and then bytes without ETX forever: the job ends in an AgentError', async () => {
    const hub = new MemoryHub();
    let flooded = 0;
    hub.listen('encoder', (device) => {
      device.onData((chunk) => {
        if (chunk.includes(ENQ)) void device.write(Buffer.of(ACK));
        if (!chunk.includes(STX)) return;
        void (async () => {
          await device.write(Buffer.of(ACK));
          await device.write(Buffer.of(STX));
          for (let i = 0; i < 64; i++) {
            await device.write(Buffer.alloc(CHUNK, 0x41));
            flooded += CHUNK;
          }
        })();
      });
    });
    const sim = new EncoderSimulator({ rooms: ['101'], encoderIds: ['E1'] });
    const rig = {
      sim,
      transport: { transport: 'memory', name: 'encoder' },
      io: createTransportFactory({ log: silentLogger, memory: hub }),
      dispose: async () => hub.unplug('encoder'),
    };
    const driver = makeDriver(rig, { cardTimeoutMs: 200 });
    await driver.open(new AbortController().signal);
    const outcome = await run(driver, keyJob({ keyCount: 1 }));
    expect(flooded).toBe(64 * CHUNK);
    expect(outcome.ok).toBe(false);
    // An AgentError, its Notes in words (the rig renders them).
    expect(outcome.ok ? undefined : outcome.error).toMatchObject({
      code: 'DEVICE_TIMEOUT',
      notes: expect.any(String),
    });
    await driver.close();
    await rig.dispose();
  });
});
