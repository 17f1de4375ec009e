import { runNaiveAgent } from './naive-agent.js';

/**
 * The naive baseline as its own process, so the benchmark reads its memory and CPU from /proc
 * exactly as it reads the daemon's. Usage:
 *   node --import tsx bench/naive-main.ts '{"url": …, "deviceIds": […], "sleepMs": 2000, …}'
 * Tokens come from NAIVE_CLIENT_TOKEN / NAIVE_ACCESS_TOKEN. SIGTERM stops it; it then prints one
 * line `naive stats {…}` and exits 0.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  deviceIds: string[];
  sleepMs: number;
  retryMs: number;
  attempts: number;
  fixedJobMs?: number;
};
const controller = new AbortController();
process.on('SIGTERM', () => controller.abort());
process.stdout.write('naive agent ready\n');
const stats = await runNaiveAgent(
  {
    ...options,
    clientToken: process.env.NAIVE_CLIENT_TOKEN ?? '',
    accessToken: process.env.NAIVE_ACCESS_TOKEN ?? '',
  },
  controller.signal,
);
process.stdout.write(`naive stats ${JSON.stringify(stats)}\n`);
process.exit(0);
