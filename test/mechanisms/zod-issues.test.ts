import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues, ONE_LINE } from '../../src/zod-issues.js';

const Schema = z
  .object({ devices: z.array(z.object({ id: z.string(), port: z.number() })) })
  .refine((v) => v.devices.length > 0, { message: 'no device' });

function errorOf(value: unknown): z.ZodError {
  const parsed = Schema.safeParse(value);
  if (parsed.success) throw new Error('expected issues');
  return parsed.error;
}

describe('the one zod-issue formatter', () => {
  it('names each issue by its path, indexes in brackets, one per line, without the offending value', () => {
    const text = formatIssues(
      errorOf({
        devices: [
          { id: 'a', port: 1 },
          { id: 7, port: 'secret-token' },
        ],
      }),
    );
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^devices\[1\]\.id: /),
      expect.stringMatching(/^devices\[1\]\.port: /),
    ]);
    expect(text).not.toContain('secret-token');
  });

  it('names the whole value "(root)" unless told otherwise', () => {
    expect(formatIssues(errorOf({ devices: [] }))).toBe('(root): no device');
    expect(formatIssues(errorOf({ devices: [] }), { root: 'form' })).toBe('form: no device');
  });

  it('keeps a log line short: at most five issues on one line', () => {
    const devices = Array.from({ length: 7 }, () => ({ id: 1, port: 1 }));
    const line = formatIssues(errorOf({ devices }), ONE_LINE);
    expect(line.split('; ')).toHaveLength(5);
    expect(line).not.toContain('\n');
    expect(line.startsWith('devices[0].id: ')).toBe(true);
    expect(formatIssues(errorOf({ devices }), { limit: 1 })).toMatch(/^devices\[0\]\.id: [^\n]+$/);
  });
});
