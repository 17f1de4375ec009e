import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { driverRegistry } from '../../drivers/index.js';
import { defaultAccountSerials, Redactor } from '../../src/cli/redact.js';
import { writeAgentConfig } from '../helpers/agent-config.js';
import { runCliCaptured } from '../helpers/cli.js';

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

/**
 * Issue 40, low finding: a Custom RT printer logs the agent in with its default account — the
 * serial as user and password — and that serial is printed on every receipt and was kept by the
 * support bundle (configuration, device facts, every log line naming the printer). Now the bundle
 * takes out the serial of every printer that is on its default account, and keeps the others'.
 */
describe('a support bundle and a printer on its default account', () => {
  const DEFAULT = 'STMTE501091';
  const OWN = 'STMTE501092';
  const RT = (id: string, options: Record<string, unknown>) => ({
    id,
    name: `RT ${id}`,
    type: 'FiscalMachine',
    driver: 'custom-rt',
    options: { url: 'http://127.0.0.1:9', ...options },
  });

  it('takes out the serial that is a password, and only that one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-bundle-serial-'));
    const config = writeAgentConfig(dir, {
      platform: { url: 'http://127.0.0.1:9' },
      status: { listen: '127.0.0.1:0', staffSocket: join(dir, 'staff.sock') },
      devices: [
        RT('rt-default', { serialNumber: DEFAULT }),
        RT('rt-own', { serialNumber: OWN, credentials: { user: 'frontdesk', password: 'kY7-long-pass' } }),
      ],
    });
    const log = join(dir, 'agent.log');
    const now = new Date().toISOString();
    writeFileSync(
      log,
      `${now} info Receipt 0012-0034 on RT ${DEFAULT}\n${now} info Receipt 0013-0001 on RT ${OWN}\n`,
    );
    const archive = join(dir, 'bundle.tar.gz');
    const run = await runCliCaptured(
      ['support-bundle', '--config', config, '-o', archive, '--log-file', log],
      {
        FRONTDESK_CLIENT_TOKEN: 'client-0123456789',
        FRONTDESK_ACCESS_TOKEN: 'access-0123456789',
      },
    );
    expect(run.code).toBe(0);
    const text = gunzipSync(readFileSync(archive)).toString('utf8');
    expect(text).not.toContain(DEFAULT);
    expect(text).toContain(`Receipt 0012-0034 on RT [redacted]`);
    expect(text).toContain(`Receipt 0013-0001 on RT ${OWN}`);
  });

  it('knows a default account from the driver’s options schema, not its name', async () => {
    const serials = await defaultAccountSerials(
      [
        { id: 'a', driver: 'custom-rt', options: {} },
        {
          id: 'b',
          driver: 'custom-rt',
          options: { credentials: { user: 'x', password: OWN.toLowerCase() } },
        },
        { id: 'c', driver: 'epson-fpmate', options: { serialNumber: '99MEY123456' } },
        { id: 'd', driver: 'no-such-driver', options: { serialNumber: 'ZZZZ99999999' } },
      ],
      driverRegistry,
      new Map([
        ['a', { serialNumber: DEFAULT }],
        ['b', { serialNumber: OWN }],
      ]),
    );
    expect(serials.sort()).toEqual([DEFAULT, OWN]);
  });
});
