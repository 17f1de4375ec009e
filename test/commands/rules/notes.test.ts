import { describe, expect, it } from 'vitest';
import { errorNotes, safeReason } from '../../../src/commands/rules/notes.js';
import { AgentError } from '../../../src/errors.js';
import { english, messageRenderer } from '../../../src/messages/render.js';

describe('notes', () => {
  it('appends the code and a short reason to the receptionist sentence', () => {
    const e = new AgentError('COVER_OPEN', 'printer status 3 (offline)');
    expect(english(errorNotes(e.toJSON()))).toBe(
      'The printer cover is open; close it and try again. (COVER_OPEN: printer status 3 (offline))',
    );
  });

  it('never appends a message that might carry a secret', () => {
    for (const message of [
      'POST failed with AccessToken=C66EF7B239D24632943D115EDE9CB810',
      'Authorization: Bearer abc',
      'GET https://admin:hunter2@10.0.0.5/cgi-bin failed',
      'cookie rejected',
    ]) {
      expect(safeReason(message)).toBeUndefined();
      expect(english(errorNotes(new AgentError('DEVICE_ERROR', message).toJSON()))).toBe(
        'The device reported an error; check it and try again. (DEVICE_ERROR)',
      );
    }
  });

  it('says the sentence in the configured language, keeping the code and the technical reason', () => {
    const e = new AgentError('PAPER_OUT', 'printer status 2 (paper end)');
    expect(messageRenderer('it').render(errorNotes(e.toJSON()))).toBe(
      'La stampante è senza carta: sostituire il rotolo e riprovare. (PAPER_OUT: printer status 2 (paper end))',
    );
  });

  it('reads an error an older journal kept, whose sentence is plain text', () => {
    const stored = { code: 'NO_CARD', message: 'EP', notes: 'No card.', retryable: false } as const;
    expect(english(errorNotes(stored as never))).toBe('No card. (NO_CARD: EP)');
  });

  it('shortens long reasons to one line', () => {
    const reason = safeReason(`line one\n${'x'.repeat(400)}`);
    expect(reason).toMatch(/^line one x+…$/);
    expect(reason?.length).toBe(160);
  });
});
