import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IppSimulator, startIppSimulator } from '../drivers/ipp-printer/simulator/index.js';
import { type PlatformSimulator, startPlatformSimulator } from '../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle, tempDir } from '../test/helpers/daemon.js';
import { shebangLaunch } from '../test/helpers/node-flags.js';
import { findPid, rssBytes } from './proc.js';

/**
 * A large office print through the real daemon: one Printer command carrying an N MB PDF
 * (default 20) while a fiscal device's lane keeps receiving a receipt every 250 ms. Prints the
 * daemon's peak resident memory above its idle level during the job (`VmHWM` after resetting it
 * through `/proc/PID/clear_refs`, so the start-up peak does not count), that peak as a multiple of
 * the file size, how long the print took, and how the fiscal commands created meanwhile fared.
 *
 *   npx tsx bench/print-memory.ts [--mb=20] [--out=FILE.json]
 *
 * A benchmark, not a test: it prints figures and exits 0; CI does not run it. It needs root for
 * clear_refs (otherwise the peak includes start-up and is marked so).
 */

const PRINTER_DEVICE = 'b1000000-0000-4000-8000-000000000001';
const FISCAL_DEVICE = 'b1000000-0000-4000-8000-000000000002';
const TOKENS = { clientToken: 'BENCH-PRINT-CLIENT-0001', accessToken: 'BENCH-PRINT-ACCESS-0002' };
const MB = 1024 * 1024;

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** A valid PDF of about `bytes` bytes: one page, one incompressible stream (a random image's worth). */
function bigPdf(bytes: number): Buffer {
  const head = '%PDF-1.4\n';
  const page = [
    '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n',
  ].join('');
  const filler = Buffer.alloc(Math.max(0, bytes - 1024));
  for (let i = 0; i < filler.length; i += 4) filler.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
  const stream = Buffer.concat([
    Buffer.from(`4 0 obj\n<< /Length ${filler.length} >>\nstream\n`),
    filler,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  const body = Buffer.concat([Buffer.from(head + page), stream]);
  const tail = `trailer\n<< /Size 5 /Root 1 0 R >>\n%%EOF\n`;
  return Buffer.concat([body, Buffer.from(tail)]);
}

function vm(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(check: () => T | undefined, what: string, limitMs = 600_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const size = Number(arg('mb') ?? 20) * MB;
  const dir = tempDir('bench-print');
  let printer: IppSimulator | undefined;
  let sim: PlatformSimulator | undefined;
  let daemon: DaemonHandle | undefined;
  try {
    printer = await startIppSimulator({ printers: [{ name: 'Big', pageMs: 20 }] });
    sim = await startPlatformSimulator({
      scenario: {
        platform: { ...TOKENS, rateLimit: { requests: 100_000, windowSeconds: 30 } },
        devices: [
          { id: PRINTER_DEVICE, type: 'Printer', name: 'Office', printerName: 'Big' },
          {
            id: FISCAL_DEVICE,
            type: 'FiscalMachine',
            name: 'RT',
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: '99BEN000001',
            settings: { sim: { outcome: 'ok', durationMs: 50 } },
          },
        ],
        reservations: { generate: 5 },
      },
    });
    const launch = shebangLaunch(join(import.meta.dirname, '..', 'app', 'main.ts'));
    daemon = createDaemon({
      config: {
        version: 1,
        platform: {
          url: sim.url,
          websocketUrl: sim.wsUrl,
          rateLimit: { requests: 100_000, windowSeconds: 30 },
        },
        poll: { intervalMs: 1000, safetyNetMs: 30_000, fiscalLookbackHours: 24 },
        log: { level: 'info' },
        devices: [
          {
            id: PRINTER_DEVICE,
            name: 'Office',
            type: 'Printer',
            driver: 'ipp-printer',
            options: { printers: { Big: printer.printerUri('Big') }, cupsQueues: false, pollIntervalMs: 100 },
          },
          {
            id: FISCAL_DEVICE,
            name: 'RT',
            type: 'FiscalMachine',
            driver: 'sim-fiscal',
            options: { durationMs: 50, jitterMs: 0, ledgerPath: join(dir, 'ledger.jsonl') },
          },
        ],
      },
      env: {
        ...launch.env,
        NODE_OPTIONS: [
          ...launch.flags.filter((f) => /max-(semi|old)-space-size/.test(f)),
          ...(arg('prof') ? ['--cpu-prof', `--cpu-prof-dir=${arg('prof')}`] : []),
        ].join(' '),
        FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken,
        FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken,
      },
      startTimeoutMs: 60_000,
    });
    await daemon.start();
    const pid = findPid(daemon.configPath);
    // Warm up both lanes once, then let it go quiet.
    const warm = [
      sim.createPrint({ deviceId: PRINTER_DEVICE, copyCount: 1 }).id,
      sim.createFiscalPayload({ deviceId: FISCAL_DEVICE }).id,
    ];
    const s = sim;
    await waitFor(
      () =>
        warm.every((id) => ['Processed', 'Error'].includes(s.command(id)?.state ?? '')) ? true : undefined,
      'the warm-up',
    );
    await new Promise((r) => setTimeout(r, 5000));
    const idle = rssBytes(pid);
    const peakReset = resetPeak(pid);

    const pdf = bigPdf(size).toString('base64');
    const started = Date.now();
    const big = sim.createPrint({ deviceId: PRINTER_DEVICE, copyCount: 1, fileData: pdf }).id;
    const fiscal: Array<{ id: string; created: number }> = [];
    let sampled = idle;
    const ticker = setInterval(() => {
      sampled = Math.max(sampled, rssBytes(pid));
      if (fiscal.length < 40)
        fiscal.push({ id: s.createFiscalPayload({ deviceId: FISCAL_DEVICE }).id, created: Date.now() });
    }, 250);
    const state = await waitFor(() => {
      const st = s.command(big)?.state;
      return st === 'Processed' || st === 'Error' ? st : undefined;
    }, 'the big print');
    const printMs = Date.now() - started;
    clearInterval(ticker);
    const peak = peakReset ? vm(pid, 'VmHWM') : sampled;
    const during = fiscal.filter((f) => f.created <= started + printMs);
    await waitFor(
      () =>
        fiscal.every((f) => ['Processed', 'Error'].includes(s.command(f.id)?.state ?? '')) ? true : undefined,
      'the receipts',
    );
    const latencies = during.map((f) => {
      const processed = s.history(f.id).find((h) => h.state === 'Processed');
      return processed ? Date.parse(String(processed.at)) - f.created : Number.NaN;
    });
    const doneDuring = during.filter((f) => {
      const processed = s.history(f.id).find((h) => h.state === 'Processed');
      return processed !== undefined && Date.parse(String(processed.at)) <= started + printMs;
    }).length;
    const result = {
      fileBytes: size,
      base64Bytes: pdf.length,
      outcome: state,
      notes: s.history(big).at(-1)?.notes,
      printSeconds: printMs / 1000,
      idleRssMb: +(idle / MB).toFixed(1),
      peakRssMb: +(peak / MB).toFixed(1),
      peakGrowthMb: +((peak - idle) / MB).toFixed(1),
      growthPerFileSize: +((peak - idle) / size).toFixed(2),
      peakMeasuredBy: peakReset
        ? 'VmHWM after clear_refs'
        : 'VmRSS sampled every 250 ms (no root: start-up peak excluded by sampling)',
      receiptsCreatedDuringPrint: during.length,
      receiptsProcessedDuringPrint: doneDuring,
      receiptLatencyP50Ms: percentile(latencies, 50),
      receiptLatencyMaxMs: Math.max(...latencies),
      printerReceived: printer.spooled().map((d) => d.bytes),
    };
    console.log(JSON.stringify(result, null, 2));
    const out = arg('out');
    if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    const log = arg('log');
    if (log && daemon) writeFileSync(log, `${daemon.lines.join('\n')}\n`);
    await daemon?.stop();
    await sim?.close();
    await printer?.close();
  }
}

await main();
