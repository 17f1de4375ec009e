import { describe, expect, it } from 'vitest';
import {
  type CardRequest,
  cardRequestFields,
  decodeAccessCodes,
  encodeAccessCode,
  parseCardRequest,
} from '../../../drivers/salto-encoder/commands.js';
import { encodeFrame } from '../../../drivers/salto-encoder/protocol.js';
import { parseReply, REPLY_ERRORS, replyError } from '../../../drivers/salto-encoder/replies.js';
import { ERROR_CODES } from '../../../src/errors.js';
import { english, messageRenderer } from '../../../src/messages/render.js';

const request: CardRequest = {
  command: 'CN',
  count: 1,
  encoderId: 'Encoder 1',
  eject: 'eject',
  rooms: ['101', '102'],
  grantedAccess: [1, 10, 36],
  deniedAccess: [62],
  validFrom: '1400211126',
  validUntil: '1100231126',
  operator: 'Front desk',
  printLines: ['Ann Smith', 'Res. 4711', '21/11 - 23/11'],
  serialReturn: 'last',
};

describe('card requests', () => {
  it('lays out the CN fields in protocol order', () => {
    expect(cardRequestFields(request)).toEqual([
      'CN1',
      'Encoder 1',
      'E',
      '101',
      '102',
      '',
      '',
      '1a!',
      '}',
      '1400211126',
      '1100231126',
      'Front desk',
      'Ann Smith',
      'Res. 4711',
      '21/11 - 23/11',
      '1',
    ]);
  });

  it('frames a CC copy with retain and no serial byte for byte', () => {
    const fields = cardRequestFields({
      ...request,
      command: 'CC',
      eject: 'retain',
      rooms: ['7'],
      serialReturn: 'none',
      grantedAccess: [],
      deniedAccess: [],
      printLines: [],
    });
    expect(fields.slice(0, 3)).toEqual(['CC1', 'Encoder 1', 'R']);
    const frame = encodeFrame(fields);
    expect(frame.toString('latin1')).toBe(
      '\x02\xb3CC1\xb3Encoder 1\xb3R\xb37\xb3\xb3\xb3\xb3\xb3\xb31400211126\xb31100231126\xb3Front desk\xb3\xb3\xb3\xb30\xb3\x03' +
        String.fromCharCode(frame[frame.length - 1] as number),
    );
  });

  it('encodes access codes 1..62 as single characters and back', () => {
    const all = Array.from({ length: 62 }, (_, i) => i + 1);
    const text = all.map(encodeAccessCode).join('');
    expect(text).toBe('123456789abcdefghijklmnopqrstuvwxyz!#$%&()*+,-./:;<=>?@[\\]^_{}');
    expect(decodeAccessCodes(text)).toEqual(all);
    expect(() => encodeAccessCode(63)).toThrow(RangeError);
  });

  it('parses a request back (the simulator side)', () => {
    expect(parseCardRequest(cardRequestFields(request))).toEqual(request);
    expect(parseCardRequest(['LT', 'x'])).toBeUndefined();
    expect(() => cardRequestFields({ ...request, rooms: ['1', '2', '3', '4', '5'] })).toThrow(RangeError);
  });
});

describe('replies', () => {
  it('reads a success echo with the card serial', () => {
    expect(parseReply(['CN1', 'Encoder 1', 'C0DE0001'])).toEqual({
      ok: true,
      command: 'CN1',
      encoderId: 'Encoder 1',
      serials: ['C0DE0001'],
    });
    expect(parseReply(['CC', 'Encoder 1'])).toMatchObject({ ok: true, serials: [] });
  });

  it('reads an error code and the general error text', () => {
    expect(parseReply(['EP', 'Encoder 1'])).toEqual({
      ok: false,
      code: 'EP',
      encoderId: 'Encoder 1',
      text: '',
    });
    expect(parseReply(['EG', 'Encoder 1', 'printer jam'])).toMatchObject({ code: 'EG', text: 'printer jam' });
  });

  const context = { rooms: ['101'], card: 2, total: 3 };
  it.each([
    ['ES', 'DEVICE_ERROR', false],
    ['NC', 'DEVICE_UNAVAILABLE', true],
    ['NF', 'DEVICE_ERROR', false],
    ['OV', 'DEVICE_BUSY', true],
    ['EP', 'NO_CARD', false],
    ['EF', 'CARD_REJECTED', false],
    ['TD', 'ROOM_UNKNOWN', false],
    ['ED', 'DEVICE_TIMEOUT', false],
    ['EA', 'DEVICE_ERROR', false],
    ['OS', 'DEVICE_ERROR', false],
    ['EO', 'DEVICE_BUSY', false],
    ['EV', 'CARD_REJECTED', false],
    ['EG', 'DEVICE_ERROR', false],
    ['ZZ', 'DEVICE_ERROR', false],
  ])('%s → %s (retryable %s) with a receptionist note', (code, agentCode, retryable) => {
    const error = replyError(
      { ok: false, code, encoderId: 'E1', text: code === 'EG' ? 'disk full' : '' },
      context,
    );
    expect(error.code).toBe(agentCode);
    expect(error.retryable).toBe(retryable);
    expect(error.details).toMatchObject({ replyCode: code, card: 2, total: 3 });
    for (const locale of ['en', 'it'] as const) {
      const words = messageRenderer(locale).render(error.notes);
      expect(words).not.toMatch(/\{|\}/);
      expect(words.length).toBeGreaterThan(20);
    }
  });

  it('words the notes for the room and the lock text', () => {
    const err = (code: string, text = '') =>
      english(replyError({ ok: false, code, encoderId: 'E1', text }, context).notes);
    expect(err('EP')).toBe('No card in the encoder — insert a blank card and try again.');
    expect(err('TD')).toBe('The lock software does not know room 101; check the room-to-lock mapping.');
    expect(err('EG', 'disk full')).toBe('The lock software reported an error: disk full');
    expect(err('ZZ')).toContain('no details given');
    const it = (code: string, rooms: string[]) =>
      messageRenderer('it').render(
        replyError({ ok: false, code, encoderId: 'E1', text: '' }, { ...context, rooms }).notes,
      );
    expect(it('TD', ['101'])).toBe(
      'Il software delle serrature non conosce la camera 101: controllare l’abbinamento tra camere e serrature.',
    );
    expect(it('EA', ['101', '102'])).toBe(
      'Per il software delle serrature le camere 101 e 102 risultano in check-out, quindi la chiave non si può copiare: codificare chiavi nuove.',
    );
  });

  it('maps every protocol code to a code the agent knows', () => {
    for (const meaning of Object.values(REPLY_ERRORS))
      expect(Object.keys(ERROR_CODES)).toContain(meaning.code);
  });
});
