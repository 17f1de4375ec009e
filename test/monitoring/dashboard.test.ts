import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { DEVICES, e2eScenario, TOKENS } from '../e2e/harness.js';
import { createDaemon, type DaemonHandle } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';

/**
 * The Grafana dashboard parses, and it and the alert rules name only metrics, labels and device
 * facts that a live agent exports: the real daemon (with an Epson RT driver against the printer
 * simulator, so the fiscal facts are there) is scraped at its /metrics.
 */

const monitoring = join(import.meta.dirname, '..', '..', 'monitoring');

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string; refId: string }>;
}

const dashboard = JSON.parse(readFileSync(join(monitoring, 'grafana-fleet.json'), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; query: unknown }> };
};
const rules = parse(readFileSync(join(monitoring, 'alerts.yml'), 'utf8')) as {
  groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
};

const dashboardExprs = [
  ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
  ...dashboard.templating.list.flatMap((v) =>
    typeof v.query === 'object' && v.query ? [(v.query as { query: string }).query] : [],
  ),
];
const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr));

/** Grafana's reference to the dashboard's datasource variable. */
const GRAFANA_DATASOURCE = ['$', '{datasource}'].join('');

/** Series Prometheus makes itself, not the agent. */
const PROMETHEUS_OWN = new Set(['up', 'ALERTS']);

function metricNames(expr: string): string[] {
  const names = new Set<string>();
  for (const m of expr.matchAll(
    /\b(frontdesk_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+|up|ALERTS)\b(?=\s*[{[)\s]|$)/g,
  ))
    names.add(m[1] as string);
  return [...names];
}

function factNames(expr: string): string[] {
  const found: string[] = [];
  for (const m of expr.matchAll(/fact=~?"([^"]+)"/g)) found.push(...(m[1] as string).split('|'));
  return found;
}

let platform: PlatformSimulator;
let printer: FpmateSimulator;
let daemon: DaemonHandle;
let exposition = '';

beforeAll(async () => {
  platform = await startPlatformSimulator({ scenario: e2eScenario() });
  printer = await startFpmateSimulator();
  daemon = createDaemon({
    config: {
      version: 1,
      platform: { url: platform.url },
      site: { property: 'hotel-e2e', desk: 'reception' },
      devices: [
        {
          id: DEVICES.fiscalOk,
          name: 'RT Epson',
          type: 'FiscalMachine',
          driver: 'epson-fpmate',
          options: { url: printer.url, statusIntervalMs: 0 },
        },
        {
          id: DEVICES.keysOk,
          name: 'Encoder',
          type: 'KeyCutter',
          driver: 'sim-encoder',
          options: { durationMs: 5 },
        },
      ],
    },
    env: { FRONTDESK_CLIENT_TOKEN: TOKENS.clientToken, FRONTDESK_ACCESS_TOKEN: TOKENS.accessToken },
  });
  await daemon.start();
  // The RT's facts appear once the driver has read the printer's status.
  exposition = await eventually('the Epson facts and a platform success on /metrics', async () => {
    const { text } = await fetchText(`${daemon.statusUrl()}/metrics`);
    return text.includes('fact="fiscalDayOpen"') && text.includes('frontdesk_platform_last_success')
      ? text
      : false;
  });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await printer?.close();
  await platform?.close();
});

async function fetchText(url: string): Promise<{ text: string }> {
  const { createHttpClient } = await import('../../src/transport/http.js');
  const http = createHttpClient();
  try {
    const answer = await http.request({ method: 'GET', url, timeoutMs: 5000, maxBytes: 4 * 1024 * 1024 });
    return { text: answer.body.toString('utf8') };
  } finally {
    http.close();
  }
}

/** Families the live agent declares (`# TYPE name kind`), with histogram series names. */
function exported(): Set<string> {
  const names = new Set<string>();
  for (const m of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [name, kind] = [m[1] as string, m[2] as string];
    names.add(name);
    if (kind === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('Grafana dashboard', () => {
  it('is a dashboard Grafana can import: unique panel ids, a datasource variable, a query per target', () => {
    expect(dashboard.uid).toBe('frontdesk-agent-fleet');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'property', 'desk']);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.w, panel.title).toBeGreaterThan(0);
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: GRAFANA_DATASOURCE });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(target.expr, panel.title).toMatch(/\S/);
    }
  });

  it('names only metrics, labels and device facts a live agent exports (and so do the alert rules)', () => {
    const live = exported();
    expect(live.has('frontdesk_device_fact')).toBe(true);
    for (const expr of [...dashboardExprs, ...ruleExprs]) {
      const names = metricNames(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        if (PROMETHEUS_OWN.has(name)) continue;
        expect(live.has(name), `${name} in ${expr}`).toBe(true);
      }
      for (const fact of factNames(expr)) {
        if (fact.includes('*')) {
          expect(exposition, fact).toMatch(new RegExp(`fact="${fact}"`));
        } else {
          expect(exposition, `fact ${fact} in ${expr}`).toContain(`fact="${fact}"`);
        }
      }
    }
    // The labels the rules and the dashboard group and filter by are on the live samples.
    for (const label of [
      'property="hotel-e2e"',
      'desk="reception"',
      'device_name="RT Epson"',
      `device="${DEVICES.fiscalOk}"`,
    ])
      expect(exposition).toContain(label);
  });
});
