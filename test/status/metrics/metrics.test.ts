import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { textMessage } from '../../../src/messages/message.js';
import { createMetrics } from '../../../src/status/metrics/metrics.js';
import { buildStatusServer } from '../../../src/status/server.js';
import { ENCODER_ID, FakeSource, FISCAL_ID, NOW, PRINTER_ID } from '../helpers/fake-source.js';

interface Sample {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}
const parsePrometheus = createRequire(import.meta.url)('parse-prometheus-text-format') as (
  text: string,
) => Family[];

function family(families: Family[], name: string): Family {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric family ${name}`);
  return found;
}

function sampleValue(
  families: Family[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const sample = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return sample?.value === undefined ? undefined : Number(sample.value);
}

/** The value of the exposition line `name{labels}` (labels compared as a set). */
function line(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const row of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(row);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    const same =
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => found[k] === v);
    if (same) return Number(match[3]);
  }
  return undefined;
}

const source = new FakeSource();
const metrics = createMetrics();
const app = buildStatusServer({ source, log: silentLogger, metrics });
afterEach(() => {
  source.snap.devices.forEach((d) => {
    d.status.connected = d.id !== PRINTER_ID;
  });
});

function feed(): void {
  const base = { at: NOW, deviceType: 'FiscalMachine', kind: 'fiscal' } as const;
  source.emit({
    ...base,
    type: 'transition',
    commandId: 'a',
    deviceId: FISCAL_ID,
    to: 'Received',
    pickupMs: 800,
  });
  source.emit({
    ...base,
    type: 'transition',
    commandId: 'a',
    deviceId: FISCAL_ID,
    from: 'Received',
    to: 'Processing',
  });
  source.emit({ type: 'progress', at: NOW, commandId: 'a', deviceId: FISCAL_ID, fraction: 0.5 });
  source.emit({
    ...base,
    type: 'transition',
    commandId: 'a',
    deviceId: FISCAL_ID,
    to: 'Processed',
    endToEndMs: 4000,
  });
  source.emit({
    ...base,
    type: 'transition',
    commandId: 'b',
    deviceId: FISCAL_ID,
    to: 'Error',
    endToEndMs: 25_000,
    errorCode: 'PAPER_OUT',
  });
  source.emit({
    type: 'transition',
    at: NOW,
    commandId: 'c',
    deviceId: ENCODER_ID,
    deviceType: 'KeyCutter',
    kind: 'keys',
    to: 'Processed',
    pickupMs: 150,
    endToEndMs: 9000,
  });
  const request = (operation: string, status: number, budgetWaitMs: number) =>
    source.emit({ type: 'request', at: NOW, record: { operation, status, durationMs: 120, budgetWaitMs } });
  request('commands/getAllActive', 200, 0);
  request('commands/getAllActive', 200, 0);
  request('commands/update', 200, 1500);
  request('commands/update', 429, 0);
  request('fiscalMachineCommands/getAll', 0, 0);
  source.emit({
    type: 'device',
    at: NOW,
    deviceId: PRINTER_ID,
    status: { connected: false, summary: textMessage('unplugged'), warnings: [], facts: {} },
  });
}

describe('/metrics', () => {
  it('exposes the agent’s families with values derived from events and the snapshot', async () => {
    feed();
    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parsePrometheus(res.body);

    // default process metrics are included
    expect(families.some((f) => f.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(families.some((f) => f.name === 'nodejs_eventloop_lag_seconds')).toBe(true);

    // commands by device, type and outcome
    expect(family(families, 'frontdesk_commands_total').type).toBe('COUNTER');
    expect(
      sampleValue(families, 'frontdesk_commands_total', {
        device: FISCAL_ID,
        type: 'fiscal',
        outcome: 'processed',
      }),
    ).toBe(1);
    expect(
      sampleValue(families, 'frontdesk_commands_total', {
        device: FISCAL_ID,
        type: 'fiscal',
        outcome: 'error',
      }),
    ).toBe(1);
    expect(
      sampleValue(families, 'frontdesk_commands_total', {
        device: ENCODER_ID,
        type: 'keys',
        outcome: 'processed',
      }),
    ).toBe(1);
    expect(family(families, 'frontdesk_commands_total').metrics).toHaveLength(3);

    // latency histograms (parse-prometheus-text-format 1.1 merges labelled histogram series into
    // one, so their series are read from the exposition lines directly)
    expect(family(families, 'frontdesk_command_end_to_end_seconds').type).toBe('HISTOGRAM');
    expect(family(families, 'frontdesk_command_pickup_seconds').type).toBe('HISTOGRAM');
    const e2e = 'frontdesk_command_end_to_end_seconds';
    expect(line(res.body, `${e2e}_count`, { type: 'fiscal' })).toBe(2);
    expect(line(res.body, `${e2e}_sum`, { type: 'fiscal' })).toBeCloseTo(29);
    expect(line(res.body, `${e2e}_bucket`, { type: 'fiscal', le: '5' })).toBe(1);
    expect(line(res.body, `${e2e}_bucket`, { type: 'fiscal', le: '30' })).toBe(2);
    expect(line(res.body, `${e2e}_count`, { type: 'keys' })).toBe(1);
    expect(line(res.body, 'frontdesk_command_pickup_seconds_sum', { type: 'fiscal' })).toBeCloseTo(0.8);
    expect(line(res.body, 'frontdesk_command_pickup_seconds_bucket', { type: 'keys', le: '0.25' })).toBe(1);
    expect(line(res.body, 'frontdesk_command_pickup_seconds_bucket', { type: 'keys', le: '0.1' })).toBe(0);

    // platform requests, 429s and budget waits
    expect(
      sampleValue(families, 'frontdesk_platform_requests_total', {
        operation: 'commands/getAllActive',
        status: '200',
      }),
    ).toBe(2);
    expect(
      sampleValue(families, 'frontdesk_platform_requests_total', {
        operation: 'commands/update',
        status: '429',
      }),
    ).toBe(1);
    expect(
      sampleValue(families, 'frontdesk_platform_requests_total', {
        operation: 'fiscalMachineCommands/getAll',
        status: '0',
      }),
    ).toBe(1);
    expect(
      sampleValue(families, 'frontdesk_platform_rate_limited_total', { operation: 'commands/update' }),
    ).toBe(1);
    const wait = family(families, 'frontdesk_platform_budget_wait_seconds').metrics[0];
    expect(Number(wait?.count)).toBe(5);
    expect(Number(wait?.buckets?.['0'])).toBe(4);
    expect(Number(wait?.sum)).toBeCloseTo(1.5);

    // gauges from the snapshot
    expect(sampleValue(families, 'frontdesk_queue_depth', { device: FISCAL_ID })).toBe(2);
    expect(sampleValue(families, 'frontdesk_queue_depth', { device: ENCODER_ID })).toBe(0);
    expect(sampleValue(families, 'frontdesk_device_busy', { device: FISCAL_ID })).toBe(1);
    expect(sampleValue(families, 'frontdesk_outbox_pending')).toBe(1);
    expect(sampleValue(families, 'frontdesk_outbox_oldest_age_seconds')).toBe(5);
    expect(sampleValue(families, 'frontdesk_device_up', { device: FISCAL_ID })).toBe(1);
    expect(sampleValue(families, 'frontdesk_device_up', { device: PRINTER_ID })).toBe(0);
    expect(
      sampleValue(families, 'frontdesk_device_info', {
        device: ENCODER_ID,
        type: 'KeyCutter',
        driver: 'salto-encoder',
      }),
    ).toBe(1);
    expect(sampleValue(families, 'frontdesk_platform_websocket_up')).toBe(1);
    expect(sampleValue(families, 'frontdesk_platform_auth_rejected')).toBe(0);
    expect(sampleValue(families, 'frontdesk_platform_budget_used')).toBe(37);
    expect(sampleValue(families, 'frontdesk_commands_in_flight')).toBe(3);
    expect(sampleValue(families, 'frontdesk_agent_info', { version: '1.2.3' })).toBe(1);
  });

  it('gauges follow the snapshot: a device that comes back is up, a removed device disappears', async () => {
    const fiscal = source.snap.devices[0];
    if (fiscal) fiscal.status.connected = false;
    let families = parsePrometheus((await app.inject({ url: '/metrics' })).body);
    expect(sampleValue(families, 'frontdesk_device_up', { device: FISCAL_ID })).toBe(0);

    const saved = source.snap.devices;
    source.snap.devices = saved.filter((d) => d.id !== PRINTER_ID);
    source.snap.platform.authRejected = true;
    families = parsePrometheus((await app.inject({ url: '/metrics' })).body);
    expect(family(families, 'frontdesk_device_up').metrics.map((m) => m.labels?.device)).not.toContain(
      PRINTER_ID,
    );
    expect(sampleValue(families, 'frontdesk_platform_auth_rejected')).toBe(1);
    source.snap.devices = saved;
    source.snap.platform.authRejected = false;
  });

  it('keeps registries apart: two metric sets in one process do not share values', async () => {
    const other = createMetrics({ defaultMetrics: false });
    other.collect(source.snapshot());
    const families = parsePrometheus(await other.text());
    expect(families.some((f) => f.name.startsWith('process_'))).toBe(false);
    expect(family(families, 'frontdesk_commands_total').metrics).toHaveLength(0);
  });
});
