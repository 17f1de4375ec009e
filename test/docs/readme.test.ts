import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the two commands a newcomer runs', () => {
    const firstLines = readme.split('\n').slice(0, 8).join('\n');
    expect(firstLines).toContain('npm ci && npm start');
    expect(firstLines).toContain('npm ci && npm test');
  });

  it('documents every error code', () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !readme.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
