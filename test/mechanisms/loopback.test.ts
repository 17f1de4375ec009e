import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/loopback.js';

describe('the one loopback rule', () => {
  it('counts localhost and every spelling of 127.0.0.0/8 and ::1', () => {
    const loopback = [
      'localhost',
      'LocalHost',
      '127.0.0.1',
      '127.1.2.3',
      '127.255.255.255',
      '::1',
      '[::1]', // a URL's hostname, a Host header's host
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1', // a local IPv4 peer on a dual-stack socket
      '[::ffff:7f00:1]', // what `new URL('http://[::ffff:127.0.0.1]/').hostname` gives
    ];
    expect(loopback.filter((host) => !isLoopback(host))).toEqual([]);
  });

  it('refuses names that only look local and addresses elsewhere', () => {
    const elsewhere = [
      'localhost.', // the absolute name can be sent to DNS
      'desk.localhost',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '127.evil.example',
      '127.1', // shorthand: only a URL of http: turns it into 127.0.0.1
      '[127.0.0.1]', // brackets enclose IPv6 only
      '128.0.0.1',
      '10.0.0.1',
      '0.0.0.0',
      '::',
      '::2',
      '::ffff:10.0.0.1',
      '[::1',
      '',
    ];
    expect(elsewhere.filter((host) => isLoopback(host))).toEqual([]);
  });
});
