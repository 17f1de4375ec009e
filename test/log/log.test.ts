import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors.js';
import { createMemoryLogger, errorFields, redact } from '../../src/log.js';

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

  it('logs an error one way: code, message and details; a stack only for an unexpected one', () => {
    const expected = new AgentError('DEVICE_UNAVAILABLE', 'printer unreachable', {
      details: { host: 'rt-1' },
    });
    expect(errorFields(expected)).toEqual({
      code: 'DEVICE_UNAVAILABLE',
      error: 'printer unreachable',
      details: { host: 'rt-1' },
    });
    const bug = errorFields(new TypeError('x is not a function'));
    expect(bug).toMatchObject({ code: 'INTERNAL', error: 'x is not a function' });
    expect(String(bug.stack)).toMatch(/^TypeError: x is not a function\n\s+at /);
    expect(errorFields('plain text')).toEqual({ code: 'INTERNAL', error: 'plain text' });
    const log = createMemoryLogger();
    log.warn('delivery failed', { commandId: 'c1', ...errorFields(expected) });
    expect(log.lines[0]).toMatch(
      /warn delivery failed commandId=c1 code=DEVICE_UNAVAILABLE error="printer unreachable" details=\{"host":"rt-1"\}$/,
    );
  });

  it('prints an Error given as a field as its message, in JSON too', () => {
    const log = createMemoryLogger({ format: 'json' });
    log.error('failed', { error: new Error('disk full') });
    expect(JSON.parse(log.lines[0] ?? '')).toMatchObject({ level: 'error', error: 'disk full' });
  });

  it('does not format a line below its level: a debug field is never rendered at info', () => {
    const log = createMemoryLogger({ level: 'info' });
    let rendered = 0;
    const field = {
      toJSON() {
        rendered++;
        return 'x';
      },
    };
    log.debug('answer', { field });
    log.child({ device: 'rt-1' }).debug('answer', { field });
    expect(log.lines).toEqual([]);
    expect(rendered).toBe(0);
    log.info('answer', { field });
    expect(rendered).toBe(1);
    expect(log.lines).toHaveLength(1);
  });
});
