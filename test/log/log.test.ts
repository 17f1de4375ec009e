import { describe, expect, it } from 'vitest';
import { createMemoryLogger, redact } from '../../src/log.js';

describe('logger', () => {
  it('prints one plain line per call with structured fields', () => {
    const log = createMemoryLogger();
    log
      .child({ device: 'printer-1' })
      .info('transition', { commandId: 'c1', from: 'Received', to: 'Processing' });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(
      /info transition device=printer-1 commandId=c1 from=Received to=Processing$/,
    );
  });

  it('never prints a secret, even one learnt after the logger was built', () => {
    const secrets: string[] = ['CLIENT-TOKEN-123456'];
    const log = createMemoryLogger({ secrets });
    secrets.push('ACCESS-TOKEN-abcdef');
    log.error('request failed', {
      body: '{"ClientToken":"CLIENT-TOKEN-123456","AccessToken":"ACCESS-TOKEN-abcdef"}',
    });
    expect(log.lines.join('\n')).not.toMatch(/CLIENT-TOKEN-123456|ACCESS-TOKEN-abcdef/);
    expect(log.lines[0]).toContain('[redacted]');
  });

  it('writes JSON lines when asked', () => {
    const log = createMemoryLogger({ format: 'json' });
    log.warn('slow', { ms: 12 });
    expect(JSON.parse(log.lines[0] ?? '')).toMatchObject({ level: 'warn', message: 'slow', ms: 12 });
  });

  it('leaves short strings alone so that a trivial token does not shred every line', () => {
    expect(redact('a b c', ['a'])).toBe('a b c');
  });
});
