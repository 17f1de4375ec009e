import { describe, expect, it } from 'vitest';
import { harvestPersonalData, Redactor, redactConfig } from '../../src/cli/redact.js';

describe('redaction for support bundles', () => {
  it('takes secret values and URL passwords out of a configuration, keeping the names of token files', () => {
    const redacted = redactConfig({
      platform: {
        url: 'https://agent:s3cret-pass@api.example.com/x',
        clientTokenFile: '/etc/frontdesk-agent/client-token',
        accessTokenEnv: 'FRONTDESK_ACCESS_TOKEN',
      },
      devices: [
        { options: { apiKey: 'k-123456', password: 'hunter22', host: '10.0.0.5', privateKey: 'PEM' } },
      ],
    });
    expect(redacted).toEqual({
      platform: {
        url: 'https://[redacted]@api.example.com/x',
        clientTokenFile: '/etc/frontdesk-agent/client-token',
        accessTokenEnv: 'FRONTDESK_ACCESS_TOKEN',
      },
      devices: [
        {
          options: {
            apiKey: '[redacted]',
            password: '[redacted]',
            host: '10.0.0.5',
            privateKey: '[redacted]',
          },
        },
      ],
    });
  });

  it('harvests guests’, creators’ and bills’ names, phones and e-mails, not device or item names', () => {
    const found = new Set<string>();
    harvestPersonalData(
      {
        device: { id: 'd', name: 'RT Reception' },
        creatorName: 'Luca Esposito',
        data: {
          keys: {
            guest: {
              firstName: 'Ελένη',
              lastName: 'Παπαδοπούλου',
              telephone: '+30 210 555 0100',
              email: 'e@x.gr',
            },
          },
          fiscal: { bill: { id: 'b', name: 'Ricevuta 1006 – Ελένη Παπαδοπούλου' } },
          items: [{ name: 'Colazione' }],
        },
      },
      found,
    );
    expect([...found].sort()).toEqual(
      [
        '+30 210 555 0100',
        'Luca Esposito',
        'Ricevuta 1006 – Ελένη Παπαδοπούλου',
        'e@x.gr',
        'Ελένη',
        'Παπαδοπούλου',
      ].sort(),
    );
  });

  it('replaces whole words only, phones however spaced, and never the room or the date', () => {
    const redactor = new Redactor(
      ['TOKEN-abcdef'],
      ['Ann', 'Rossi', '+39 347 555 0192', 'Ricevuta 1002 – Zoë Müller'],
    );
    expect(redactor.text('Ann Rossi, room 101, Annex, Rossini')).toBe(
      '[guest] [guest], room 101, Annex, Rossini',
    );
    expect(redactor.text('call 347-555-0192 or +393475550192 on 2026-11-23')).toBe(
      'call [phone] or [phone] on 2026-11-23',
    );
    expect(redactor.text('bill of Zoë Müller sent with TOKEN-abcdef')).toBe(
      'bill of [guest] [guest] sent with [redacted]',
    );
    expect(redactor.text('mail mario.rossi@example.it\n+44 20 7946 0958\n2026-11-23T10:00:00Z')).toBe(
      'mail [email]\n[phone]\n2026-11-23T10:00:00Z',
    );
  });
});
