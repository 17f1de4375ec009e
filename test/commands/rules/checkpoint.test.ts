import { describe, expect, it } from 'vitest';
import { openCheckpoint, sealCheckpoint } from '../../../src/commands/rules/checkpoint.js';
import { english } from '../../../src/messages/render.js';

const salto = { driverKind: 'salto-encoder' };
const epsonV2 = { driverKind: 'epson-fpmate', checkpointVersion: 2 };

describe('checkpoint envelope', () => {
  it('seals with the driver kind and its checkpoint version (1 by default), and opens for the same', () => {
    const sealed = sealCheckpoint(salto, { v: 1, confirmed: 2 });
    expect(sealed).toEqual({ driver: 'salto-encoder', version: 1, data: { v: 1, confirmed: 2 } });
    expect(openCheckpoint({ checkpoint: JSON.parse(JSON.stringify(sealed)) }, salto)).toEqual({
      ok: true,
      data: { v: 1, confirmed: 2 },
    });
    expect(sealCheckpoint(epsonV2, undefined)).toEqual({ driver: 'epson-fpmate', version: 2, data: null });
  });

  it('gives no checkpoint when none was stored', () => {
    expect(openCheckpoint({}, salto)).toEqual({ ok: true });
  });

  it('reads a value stored before the envelope as version 1 of the driver configured now', () => {
    const legacy = { v: 1, total: 2, confirmed: 1, serials: ['A1'] };
    expect(openCheckpoint({ checkpoint: legacy }, salto)).toEqual({ ok: true, data: legacy });
    // Something that merely looks a little like an envelope is a legacy value too.
    const lookalike = { driver: 'x', version: 1 };
    expect(openCheckpoint({ checkpoint: lookalike }, salto)).toEqual({ ok: true, data: lookalike });
    expect(openCheckpoint({ checkpoint: legacy }, epsonV2)).toMatchObject({ ok: false });
  });

  it('refuses another driver, another version, or an unreadable one', () => {
    const other = sealCheckpoint({ driverKind: 'sim-encoder' }, { confirmed: 1 });
    const refused = openCheckpoint({ checkpoint: other }, salto);
    expect(refused.ok === false && english(refused.reason)).toBe(
      'its checkpoint was written by the sim-encoder driver, and the device is now driven by salto-encoder',
    );
    const old = sealCheckpoint({ driverKind: 'epson-fpmate' }, { phase: 'sending' });
    const older = openCheckpoint({ checkpoint: old }, epsonV2);
    expect(older.ok === false && english(older.reason)).toMatch(/version 1/);
    expect(openCheckpoint({ checkpointUnreadable: true }, salto)).toMatchObject({ ok: false });
  });
});
