import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditFile } from '../../src/audit-file.js';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { OTHER_SOURCES, RepeatWindows } from '../../src/log-repeats.js';

/**
 * Issue 40, finding M5: a refused connection or a failed login logged one line each (731 and
 * 1836 a second measured), and journald's rate limit then dropped the unit's lines, audit lines
 * included. `Logger.repeated` writes the first line of a source at once and one line per minute
 * after it, with the count; audit lines also go to a file nothing else writes.
 */

const REFUSED = 'refused a connection from an address that is not allowed';

describe('Logger.repeated', () => {
  it('turns a flood of 1836 lines a second into one line now and one a minute, with the count', async () => {
    const clock = new ManualClock();
    const log = createMemoryLogger({ clock });
    for (let i = 0; i < 1836; i++)
      log.repeated(REFUSED, '10.0.0.66', { from: '10.0.0.66', at: 'tcp 0.0.0.0:5010' });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(/warn refused a connection .* from=10\.0\.0\.66 at="tcp 0\.0\.0\.0:5010"$/);
    await clock.advance(59_999);
    expect(log.lines).toHaveLength(1);
    await clock.advance(1);
    expect(log.lines).toHaveLength(2);
    expect(log.lines[1]).toMatch(
      /warn refused a connection .* from=10\.0\.0\.66 .*repeated=1835 since=2026-01-01T00:00:00\.000Z$/,
    );
    // The flood goes on for another minute: one more line, counted from the first summary.
    for (let i = 0; i < 600; i++) log.repeated(REFUSED, '10.0.0.66', { from: '10.0.0.66' });
    await clock.advance(60_000);
    expect(log.lines).toHaveLength(3);
    expect(log.lines[2]).toMatch(/repeated=600 since=2026-01-01T00:01:00\.000Z$/);
    // Quiet for a minute: the next one is written at once again.
    await clock.advance(60_000);
    log.repeated(REFUSED, '10.0.0.66', { from: '10.0.0.66' });
    expect(log.lines).toHaveLength(4);
    expect(log.lines[3]).not.toMatch(/repeated=/);
  });

  it('keeps sources, messages and child loggers apart', async () => {
    const clock = new ManualClock();
    const log = createMemoryLogger({ clock });
    const fias = log.child({ device: 'lock-1' });
    for (let i = 0; i < 5; i++) {
      fias.repeated(REFUSED, '10.0.0.66');
      fias.repeated(REFUSED, '10.0.0.67');
      log.child({ device: 'lock-2' }).repeated(REFUSED, '10.0.0.66');
      log.repeated('status page login refused', '10.0.0.66');
    }
    expect(log.lines).toHaveLength(4);
    await clock.advance(60_000);
    expect(log.lines).toHaveLength(8);
    expect(log.lines.slice(4).every((l) => l.endsWith('repeated=4 since=2026-01-01T00:00:00.000Z'))).toBe(
      true,
    );
  });

  it('follows a bounded number of sources; the rest share one window', async () => {
    const clock = new ManualClock();
    const written: string[] = [];
    const summaries: Array<{ key: string; count: number }> = [];
    const windows = new RepeatWindows<string>(({ key, count }) => summaries.push({ key, count }), {
      clock,
      maxSources: 3,
    });
    for (let address = 0; address < 1000; address++) {
      const key = windows.note(`10.0.${address >> 8}.${address & 255}`, 'refused');
      if (key !== undefined) written.push(key);
    }
    expect(written).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.2', OTHER_SOURCES]);
    expect(windows.size).toBe(4);
    await clock.advance(60_000);
    expect(summaries).toEqual([{ key: OTHER_SOURCES, count: 996 }]);
    // Quiet sources are forgotten once their window is over.
    windows.note('10.9.9.9', 'refused');
    expect(windows.size).toBeLessThanOrEqual(2);
  });
});

describe('the audit file', () => {
  it('holds every audit line and nothing else, however many other lines the log wrote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-audit-'));
    const file = join(dir, 'audit.log');
    const log = createMemoryLogger({ auditFile: file, secrets: ['STATUS-TOKEN-123456'] });
    log.info('local action device-action', {
      audit: 'device-action',
      who: 'page',
      uid: 1001,
      result: 'done',
    });
    for (let i = 0; i < 5000; i++) log.warn('status page login refused', { from: '127.0.0.1' });
    log.warn('local action device-action not done', {
      audit: 'device-action',
      who: 'remote-with-token',
      note: 'STATUS-TOKEN-123456\n<6>info forged',
    });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z info local action device-action audit=device-action who=page uid=1001 result=done$/,
    );
    expect(lines[1]).toContain('note="[redacted]\\n<6>info forged"');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(log.lines).toHaveLength(5002);
  });

  it('starts a new file at its size limit and keeps the previous one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-audit-'));
    const file = join(dir, 'audit.log');
    const audit = new AuditFile(file, 100);
    for (let i = 0; i < 5; i++)
      expect(audit.append(`audit=device-action line=${i} ${'x'.repeat(20)}`)).toBeUndefined();
    audit.close();
    expect(readFileSync(`${file}.1`, 'utf8').split('\n')[0]).toContain('line=2');
    expect(readFileSync(file, 'utf8')).toContain('line=4');
    expect(new AuditFile(join(dir, 'missing', 'audit.log')).append('audit=x')).toMatch(/ENOENT/);
  });
});
