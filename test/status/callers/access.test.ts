import { describe, expect, it } from 'vitest';
import {
  hostOnly,
  isLoopbackHostHeader,
  isSameOrigin,
  parseCookies,
  parseListen,
  safeEqual,
} from '../../../src/status/callers/access.js';

describe('access rules', () => {
  it('compares secrets of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });

  it('reads cookies: the first of a name, percent-decoded, malformed pairs skipped', () => {
    expect(parseCookies('a=1; =x; b; token=z; token=later').get('token')).toBe('z');
    expect(parseCookies('a=1; s=t%2F2').get('s')).toBe('t/2');
  });

  it('knows loopback host headers', () => {
    expect(hostOnly('[::1]:8720')).toBe('[::1]');
    expect(hostOnly('LOCALHOST:8720')).toBe('localhost');
    for (const h of ['localhost', '127.0.0.1:1', '127.1.2.3:80', '[::1]:8720'])
      expect(isLoopbackHostHeader(h), h).toBe(true);
    for (const h of [
      'localhost.evil.example',
      '127.0.0.1.nip.io:80',
      '10.0.0.1:8720',
      '[::2]:1',
      undefined,
    ]) {
      expect(isLoopbackHostHeader(h), String(h)).toBe(false);
    }
  });

  it('checks same origin by Origin, else Referer, normalising default ports', () => {
    expect(isSameOrigin({ host: 'localhost:80', origin: 'http://localhost' })).toBe(true);
    expect(isSameOrigin({ host: 'desk:8720', origin: 'http://desk:8720' })).toBe(true);
    expect(isSameOrigin({ host: 'desk:8720', referer: 'http://desk:8720/?x=1' })).toBe(true);
    expect(isSameOrigin({ host: 'desk:8720', origin: 'http://desk:8721' })).toBe(false);
    expect(isSameOrigin({ host: 'desk:8720', origin: 'null', referer: 'http://desk:8720/' })).toBe(false);
    expect(isSameOrigin({ host: 'desk:8720', origin: 'file:///x' })).toBe(false);
    expect(isSameOrigin({ host: 'desk:8720' })).toBe(false);
    expect(isSameOrigin({ origin: 'http://desk:8720' })).toBe(false);
  });

  it('parses listen addresses', () => {
    expect(parseListen('127.0.0.1:8720')).toEqual({ host: '127.0.0.1', port: 8720 });
    expect(parseListen('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListen('desk.local:80')).toEqual({ host: 'desk.local', port: 80 });
    expect(() => parseListen('8720')).toThrow();
    expect(() => parseListen('127.0.0.1:70000')).toThrow();
  });
});
