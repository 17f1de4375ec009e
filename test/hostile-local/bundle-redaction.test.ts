import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/cli/redact.js';

/**
 * Issue 27, finding 9 (what a support bundle lets out): every file of the bundle passes through
 * the Redactor, which knew tokens, the guests' data the journal still holds, e-mail addresses and
 * phone numbers written with `+`. A log line with a codice fiscale, an Italian number written the
 * way Italians write it (347 555 0192, 06 6988 1234), or a URL carrying `?access_token=` went to
 * support as it was. The log here holds what lines of a front desk's log hold; the journal knows
 * none of it (the commands closed), so only the patterns can catch it.
 */

const LOG = [
  'warn platform answer rejected url=https://api.example.com/v1/bills?access_token=Zq81-PLAT-77ab&limit=50',
  'info webhook https://bob:s3cr3t-pass@hooks.example.com/frontdesk?api_key=AK-99182&sig=f00dfeed',
  'debug guest note "codice fiscale RSSMRA85T10A562S, tel 347 555 0192 / 06 6988 1234 / 0331.123456"',
  'debug omocodia RSSMRA85T1LA562V and lower case rssmra85t10a562s',
];
const FORBIDDEN = [
  'Zq81-PLAT-77ab',
  's3cr3t-pass',
  'bob:',
  'AK-99182',
  'f00dfeed',
  'RSSMRA85T10A562S',
  'RSSMRA85T1LA562V',
  'rssmra85t10a562s',
  '347 555 0192',
  '06 6988 1234',
  '0331.123456',
];

describe('a support bundle lets out no Italian code, national phone number or URL secret', () => {
  const redactor = new Redactor([], []);
  const out = redactor.text(LOG.join('\n'));

  it.each(FORBIDDEN)('leaves no trace of %s', (secret) => {
    expect(out).not.toContain(secret);
  });

  it('keeps what support needs: hosts, paths, receipt numbers, rooms, dates, durations', () => {
    const kept = redactor.text(
      'info receipt 0012-0034 closed for room 101 on 2026-11-23T10:00:00Z after 3600000 ms (port 8720, bytes=33554432)',
    );
    expect(kept).toBe(
      'info receipt 0012-0034 closed for room 101 on 2026-11-23T10:00:00Z after 3600000 ms (port 8720, bytes=33554432)',
    );
    expect(out).toContain('https://api.example.com/v1/bills?access_token=[redacted]&limit=50');
    expect(out).toContain('https://[redacted]@hooks.example.com/frontdesk?api_key=[redacted]&sig=[redacted]');
    expect(out).toContain('[codice fiscale]');
  });
});
