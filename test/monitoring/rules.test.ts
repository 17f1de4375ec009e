import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir } from '../helpers/daemon.js';
import { requireTool } from '../helpers/tools.js';

/**
 * The shipped alert rules pass `promtool check rules` and their unit tests (`promtool test
 * rules`), the example Prometheus configuration passes `promtool check config`, and every alert
 * has a unit test that makes it fire.
 */

const monitoring = join(import.meta.dirname, '..', '..', 'monitoring');
const available = requireTool(
  'promtool',
  'checks and unit-tests the Prometheus alert rules (Debian package prometheus)',
);

function promtool(args: string[], cwd = monitoring): { status: number | null; out: string } {
  const result = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

interface RuleFile {
  groups: Array<{ name: string; rules: Array<{ alert: string; expr: string }> }>;
}
interface TestFile {
  rule_files: string[];
  tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
}

describe.runIf(available)('Prometheus alert rules', () => {
  it('pass promtool check rules', () => {
    const { status, out } = promtool(['check', 'rules', 'alerts.yml']);
    expect(out).toContain('SUCCESS: 10 rules found');
    expect(status, out).toBe(0);
  });

  it('pass their unit tests (promtool test rules)', () => {
    const { status, out } = promtool(['test', 'rules', 'alerts.test.yml']);
    expect(out).toContain('SUCCESS');
    expect(status, out).toBe(0);
  });

  it('every alert fires in at least one unit test', () => {
    const rules = parse(readFileSync(join(monitoring, 'alerts.yml'), 'utf8')) as RuleFile;
    const tests = parse(readFileSync(join(monitoring, 'alerts.test.yml'), 'utf8')) as TestFile;
    const alerts = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));
    const fired = new Set(
      tests.tests.flatMap((t) =>
        (t.alert_rule_test ?? []).filter((c) => (c.exp_alerts ?? []).length > 0).map((c) => c.alertname),
      ),
    );
    expect(alerts).toEqual(
      expect.arrayContaining([
        'FrontdeskAgentDown',
        'FrontdeskPlatformUnreachable',
        'FrontdeskResultsWaiting',
        'FrontdeskPrinterPaperOut',
        'FrontdeskFiscalDayOpenTooLong',
        'FrontdeskFiscalTransmissionsBacklog',
        'FrontdeskFiscalCertificateExpiring',
      ]),
    );
    for (const alert of alerts) expect(fired.has(alert), alert).toBe(true);
  });

  it('the example Prometheus configuration passes promtool check config: a metrics token and HTTPS per desk', () => {
    const dir = tempDir('prometheus');
    copyFileSync(join(monitoring, 'alerts.yml'), join(dir, 'alerts.yml'));
    const config = readFileSync(join(monitoring, 'prometheus.yml'), 'utf8');
    // Issue 40, item 2: never the action token, never plain HTTP, never one token for all desks.
    const jobs = config.split('- job_name: ').slice(1);
    expect(jobs.length).toBeGreaterThan(1);
    const tokens = new Set<string>();
    for (const job of jobs) {
      expect(job).toMatch(/^frontdesk-agent-[\w-]+\n/);
      expect(job).toContain('scheme: https');
      const token = /credentials_file: (\S+\.metrics-token)\n/.exec(job)?.[1];
      expect(token, job).toBeDefined();
      tokens.add(token as string);
      expect(job).toMatch(/tls_config:\n\s+ca_file: \S+\.crt\n/);
    }
    expect(tokens.size).toBe(jobs.length);
    expect(config).not.toMatch(/status-token|scheme: http\n/);
    // promtool reads the files a job names: stand-ins in a temporary directory.
    let local = config;
    for (const file of new Set(config.match(/\/etc\/prometheus\/frontdesk\/\S+/g) ?? [])) {
      const copy = join(dir, file.split('/').pop() as string);
      writeFileSync(copy, 'x\n', { mode: 0o600 });
      local = local.split(file).join(copy);
    }
    writeFileSync(join(dir, 'prometheus.yml'), local);
    const { status, out } = promtool(['check', 'config', 'prometheus.yml'], dir);
    expect(out).toContain('SUCCESS: 1 rule files found');
    expect(status, out).toBe(0);
    // The operators' guide shows the same scrape configuration.
    const guide = readFileSync(join(monitoring, '..', 'docs', 'security.md'), 'utf8');
    const scrape = config.slice(config.indexOf('scrape_configs:'));
    expect(guide).toContain(scrape.trim());
  });
});
