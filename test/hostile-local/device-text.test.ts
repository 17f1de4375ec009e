import { afterEach, describe, expect, it } from 'vitest';
import { JobState } from '../../drivers/ipp-printer/ipp-constants.js';
import { devicesCommand } from '../../src/cli/devices.js';
import type { DiscoveredDevice } from '../../src/drivers-api/types.js';
import { english } from '../../src/messages/render.js';
import { PRINTER, printJob, type Rig, rejection, rig } from '../drivers/ipp-printer/helpers.js';
import { captureCli } from '../helpers/cli.js';
import { recordingExecuteContext } from '../helpers/driver-context.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Issue 27, finding 9 (device text) and finding 7 (what `devices` prints): a printer's
 * `job-state-message` and state reasons (up to 64 KiB each, RFC 8011 §5.3.9.3 gives no limit
 * below the 1023 octets of `text(MAX)` that printers ignore) reached Notes, the journal and the
 * status page unclipped, line breaks and escape sequences included; and `frontdesk-agent devices`
 * printed mDNS instance names as they came, so an ESC announced on the LAN reached the terminal.
 *
 * Now device text is one line of at most 160 characters with no control character wherever the
 * agent reads it, and `devices` strips control characters from everything it prints.
 */

/** What a hostile printer writes: many lines, terminal escapes, a bidi override, 60,000 characters. */
const HOSTILE = `Paper jam\r\n<6>info forged line\u001b[2J\u001b]0;owned\u0007\u202eevil ${'x'.repeat(60_000)}`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters that must not appear.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('a printer’s words reach Notes as one short line', () => {
  it('clips a 60,000-character job-state-message with line breaks and escapes when a job is aborted', async () => {
    r = await rig({ extra: { statusIntervalMs: 0 } });
    const sim = r.sim;
    sim.setFault(PRINTER, 'neverComplete', true);
    const printer = sim.printer(PRINTER);
    const pending = rejection(r.driver.execute(printJob(), recordingExecuteContext()));
    // The printer takes the job, then says it aborted it, in its own words.
    const job = await eventually('the printer took the job', () => printer.listed()[0]);
    job.state = JobState.aborted;
    job.reasons = ['job-aborted-by-system', `other-${'y'.repeat(5000)}\n`];
    job.message = HOSTILE;
    const error = await pending;
    const notes = english(error.notes);
    expect(notes).toContain('Paper jam');
    expect(notes).not.toMatch(CONTROL);
    expect(notes).not.toContain('x'.repeat(200));
    expect(notes).not.toContain('y'.repeat(200));
    expect(notes.length).toBeLessThan(600);
  });
});

describe('frontdesk-agent devices strips control characters from everything it prints', () => {
  const announced: DiscoveredDevice = {
    source: 'IPP printer on the LAN (mDNS)',
    name: 'Reception\u001b[2J\u001b]0;pwned\u0007\nLaser\u202e',
    address: 'ipp://192.168.1.50/ipp/print\u001b[31m',
    note: 'HP\u009b31m LaserJet\r\nat 192.168.1.50',
    suggestedOptions: { printers: { 'Reception\u001b[2JLaser': 'ipp://192.168.1.50/ipp/print' } },
  };
  const registry = new Map([
    [
      'ipp-printer',
      async () =>
        ({
          deviceType: 'Printer',
          discover: async () => ({ devices: [announced], problems: ['mDNS said \u001b[5mhello\u001b[0m'] }),
        }) as never,
    ],
  ]);
  const noCandidates = async () => ({ devices: [], problems: [] });

  for (const json of [false, true]) {
    it(`as ${json ? 'JSON' : 'text'}`, async () => {
      const io = captureCli();
      await devicesCommand({ json, lan: true }, io.io, {
        registry: registry as never,
        listCandidates: noCandidates,
      });
      const printed = io.out() + io.err();
      expect(printed).toContain('Reception');
      expect(printed).toContain('Laser');
      // JSON escapes C0 controls as \u001b text; the raw character must not be there either way,
      // nor the C1 CSI (0x9b) or a bidi override, which JSON.stringify leaves raw.
      expect(printed.replace(/\n/g, '')).not.toMatch(CONTROL);
      expect(printed).not.toContain('\\u001b');
    });
  }
});
