import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ManualClock } from '../../src/clock.js';
import { loadScenario, parseScenario } from '../../src/platform-simulator/index.js';
import { ScenarioSchema } from '../../src/platform-simulator/scenario.js';
import { call, startSim } from './support.js';

const DEMO = join(import.meta.dirname, '..', '..', 'config', 'scenarios', 'demo.yaml');

/** Every object key a schema accepts, at any depth. */
function schemaKeys(schema: z.ZodType, out = new Set<string>()): Set<string> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        out.add(key);
        schemaKeys(child, out);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      schemaKeys(def.innerType as z.ZodType, out);
      break;
    case 'array':
      schemaKeys(def.element as z.ZodType, out);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) schemaKeys(option, out);
      break;
    case 'pipe':
      schemaKeys(def.in as z.ZodType, out);
      break;
  }
  return out;
}

describe('scenarios', () => {
  it('loads the demo scenario: four RT printers (Epson, Custom, RCH, simulated), three encoders, a printer, a steady stream', async () => {
    const scenario = loadScenario(DEMO);
    const types = scenario.devices.map((d) => d.type).sort();
    expect(types).toEqual([
      'FiscalMachine',
      'FiscalMachine',
      'FiscalMachine',
      'FiscalMachine',
      'KeyCutter',
      'KeyCutter',
      'KeyCutter',
      'Printer',
    ]);
    expect(scenario.generator.rate).toBeGreaterThan(0);

    const clock = new ManualClock();
    const sim = await startSim({ clock, scenario });
    expect(sim.tokens.clientToken).toBe('DEMO-CLIENT-TOKEN-0000000000000000');
    expect(sim.commands()).toHaveLength(scenario.generator.backlog);
    await clock.advance(10_000);
    expect(sim.commands()).toHaveLength(scenario.generator.backlog + 2);
    const devices = await call(sim, 'devices/getAll');
    expect((devices.body.Devices as unknown[]).length).toBe(8);
    // Each encoder's key commands carry its Data JSON, naming the protocol it speaks.
    const keyCutterData = (deviceId: string) =>
      (sim.createKeys({ deviceId }).wire.command.Data as { KeyCutterData?: string }).KeyCutterData;
    expect(keyCutterData('d14efcfd-75b9-4bd3-9f10-5657a01f860a')).toBe('{"Type":"IndustryStandardProtocol"}');
    expect(keyCutterData('0f1a5c3e-8d2b-4c6a-9e7f-1b2c3d4e5f60')).toBe('{"Type":"Fias"}');
    expect(sim.world.reservation('be35b39e-ad7e-460a-8de9-4c7581e016a2')?.lockIds).toEqual([
      '201',
      'SPA',
      '202',
    ]);
    expect(sim.receipts()).toHaveLength(1);
  });

  it('documents every scenario key in the demo file', () => {
    const text = readFileSync(DEMO, 'utf8');
    const keys = [...schemaKeys(ScenarioSchema)];
    expect(keys.length).toBeGreaterThan(40);
    const undocumented = keys.filter((key) => !new RegExp(`\\b${key}\\b`).test(text));
    expect(undocumented).toEqual([]);
  });

  it.each([
    ['an unknown key', 'generator:\n  rate: 1\n  speed: 3\n', /generator: Unrecognized key: "speed"/],
    ['a negative weight', 'generator:\n  mix:\n    keys: -1\n', /generator\.mix\.keys: /],
    ['a probability above 1', 'faults:\n  serverErrors:\n    rate: 1.5\n', /faults\.serverErrors\.rate: /],
    ['an unknown device type', 'devices:\n  - {id: a, type: Toaster, name: T}\n', /devices\[0\]\.type/],
    [
      'a fiscal device without serial',
      'devices:\n  - {id: a, type: FiscalMachine, name: RT, apiUrl: "http://x"}\n',
      /devices\[0\]\.serialNumber/,
    ],
    [
      'duplicate device ids',
      'devices:\n  - {id: a, type: Printer, name: P}\n  - {id: a, type: Printer, name: Q}\n',
      /devices\[1\]\.id: duplicate device id a/,
    ],
    [
      'a reservation in an unknown room',
      'rooms: [{number: 101}]\nreservations:\n  list: [{lastName: X, rooms: [999]}]\n',
      /reservations\.list\[0\]\.rooms\[0\]: unknown room 999/,
    ],
    [
      'a generator device that does not exist',
      'generator:\n  devices: [ghost]\n',
      /generator\.devices\[0\]: unknown device ghost/,
    ],
    [
      'a receipt on a non-fiscal device',
      'devices:\n  - {id: p, type: Printer, name: P}\nreceipts:\n  - {serialNumber: S1, zNumber: 1, documentNumber: 2, dateTimeUtc: "2026-01-01T00:00:00Z", deviceId: p}\n',
      /receipts\[0\]\.deviceId: p is not a FiscalMachine/,
    ],
    ['bad YAML', 'generator: [\n', /not valid YAML/],
  ])('refuses %s with CONFIG_INVALID naming the path', (_name, yamlText, message) => {
    let error: unknown;
    try {
      parseScenario(yamlText, 'test.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as Error).message).toMatch(message);
  });

  it('normalises numbers: room numbers become strings, receipt counters four digits', () => {
    const scenario = parseScenario(
      'rooms: [{number: 101, lockIds: [7]}]\nreceipts:\n  - {serialNumber: S1, zNumber: 12, documentNumber: "34", dateTimeUtc: "2026-01-01T00:00:00Z"}\n',
    );
    expect(scenario.rooms?.[0]).toEqual({ number: '101', lockIds: ['7'] });
    expect(scenario.receipts[0]).toMatchObject({ zNumber: '0012', documentNumber: '0034' });
  });

  it('names the file when it cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    expect(() => loadScenario(join(dir, 'missing.yaml'))).toThrow(/missing\.yaml: ENOENT/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'seed: many\n');
    expect(() => loadScenario(bad)).toThrow(/bad\.yaml:\nseed: /);
  });

  it('an empty scenario gives a small default property', () => {
    const scenario = parseScenario('');
    expect(scenario.devices.map((d) => d.type)).toEqual(['FiscalMachine', 'KeyCutter', 'Printer']);
    expect(scenario.generator).toMatchObject({ rate: 0, backlog: 0 });
    expect(scenario.platform.rateLimit).toEqual({ requests: 200, windowSeconds: 30 });
  });
});
