import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'drivers/**/*.test.ts'],
    pool: 'forks',
    // Two test files at a time, not vitest's default of one per core but one (a single worker on
    // the 2-core machines CI runs on): most files wait on sockets, child daemons, socat, cupsd and
    // Chromium rather than compute, so the second worker fills the first one's waits. Measured
    // here on 2 cores under a load average of 7: 342 s with two workers against 641 s with one,
    // every test green; the suite asserts on events and manual clocks, not on wall-clock time.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-output/vitest.json' }]],
  },
});
