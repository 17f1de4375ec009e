import { describe, expect, it } from 'vitest';
import { saltoEncoderFactory } from '../../drivers/salto-encoder/index.js';
import type { KeyJobData } from '../../src/connector/model.js';
import { KeyProtocolCheck, requestedProtocol } from '../../src/drivers-api/key-protocol.js';
import { isAgentError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/log.js';
import { english, messageRenderer } from '../../src/messages/render.js';
import { jobFor, recordingExecuteContext, testDriverContext } from '../helpers/driver-context.js';

/**
 * `KeyCutterData.Type`, the platform's name of the protocol a key command is for (the key cutter
 * integration's Data JSON; help.mews.com 4394298), checked the same way by every key driver:
 * another protocol's name ends the command before anything is written, with Notes naming both;
 * an absent or unknown Type is accepted and logged once.
 */

function keys(settings: KeyJobData['settings']): KeyJobData {
  return {
    keyCount: 1,
    lockIds: ['101'],
    startUtc: '2026-11-21T13:00:00Z',
    endUtc: '2026-11-23T10:00:00Z',
    guest: { lastName: 'Smith' },
    keyCutterId: 'E1',
    settings,
  };
}

describe('KeyCutterData.Type', () => {
  it('reads the names the platform uses, in any case, and leaves others unknown', () => {
    expect(
      requestedProtocol(keys({ value: { Type: 'IndustryStandardProtocol', MobileKeys: 'true' } })),
    ).toEqual({
      type: 'IndustryStandardProtocol',
      protocol: 'industry-standard',
    });
    expect(requestedProtocol(keys({ value: { Type: 'fias' } })).protocol).toBe('fias');
    expect(requestedProtocol(keys({ value: { Type: 'FiasKeyCutter' } })).protocol).toBe('fias');
    expect(requestedProtocol(keys({ value: { Type: 'HotekKeyCutter' } })).protocol).toBe('hotek');
    expect(requestedProtocol(keys({ value: { Type: 'Salto' } }))).toEqual({ type: 'Salto' });
    expect(requestedProtocol(keys({ value: {} }))).toEqual({});
    expect(requestedProtocol(keys({ value: {}, error: 'not JSON' }))).toEqual({ unreadable: 'not JSON' });
  });

  it('refuses a command for another protocol with Notes naming both, in English and Italian', () => {
    const check = new KeyProtocolCheck('fias', createMemoryLogger());
    let error: unknown;
    try {
      check.check(keys({ value: { Type: 'IndustryStandardProtocol' } }));
    } catch (e) {
      error = e;
    }
    expect(isAgentError(error) && error.code).toBe('COMMAND_INVALID');
    if (!isAgentError(error)) throw error;
    expect(english(error.notes)).toBe(
      'This key command is for Industry Standard Protocol (the key cutter’s Data JSON says Type "IndustryStandardProtocol"), but this encoder speaks FIAS; no key was cut. Check the key cutter’s Data JSON on the platform, or which encoder the agent uses for it.',
    );
    expect(messageRenderer('it').render(error.notes)).toContain('ma questo encoder usa FIAS');
    expect(error.details).toEqual({ keyCutterDataType: 'IndustryStandardProtocol', speaks: 'FIAS' });
  });

  it('accepts its own protocol, an absent, unknown or unreadable Type, logging each unknown value once', () => {
    const log = createMemoryLogger();
    const check = new KeyProtocolCheck('industry-standard', log);
    check.check(keys({ value: { Type: 'IndustryStandardProtocol' } }));
    for (let i = 0; i < 3; i++) {
      check.check(keys({ value: { Type: 'Salto' } }));
      check.check(keys({ value: {} }));
      check.check(keys({ value: {}, error: 'not JSON' }));
    }
    expect(log.lines.filter((l) => l.includes('Salto'))).toHaveLength(1);
    expect(log.lines.filter((l) => l.includes('names no Type'))).toHaveLength(1);
    expect(log.lines.filter((l) => l.includes('not JSON'))).toHaveLength(1);
    expect(log.lines).toHaveLength(3);
  });

  it('the Salto driver ends a FIAS command before it reaches the encoder (no transport is even created)', async () => {
    const options = saltoEncoderFactory.configSchema.parse({ transport: 'memory', name: 'nowhere' });
    const opened: string[] = [];
    const driver = saltoEncoderFactory.create(
      options,
      testDriverContext({
        io: {
          create: (spec) => {
            opened.push(spec.type);
            return {
              kind: 'memory',
              description: 'never opened',
              isOpen: false,
              open: async () => {
                opened.push('open');
              },
              write: async () => {
                opened.push('write');
              },
              onData: () => () => undefined,
              onClose: () => () => undefined,
              close: async () => undefined,
            };
          },
        },
      }),
    );
    const ctx = recordingExecuteContext();
    const job = jobFor({ kind: 'keys', keys: keys({ value: { Type: 'Fias' } }) });
    const outcome = await driver.execute(job, ctx).then(
      () => 'resolved',
      (e: unknown) => (isAgentError(e) ? `${e.code}: ${english(e.notes)}` : String(e)),
    );
    expect(outcome).toMatch(
      /^COMMAND_INVALID: This key command is for FIAS .* this encoder speaks Industry Standard Protocol/,
    );
    expect(ctx.checkpoints).toEqual([]);
    expect(opened.filter((o) => o !== 'memory')).toEqual([]);
  });
});
