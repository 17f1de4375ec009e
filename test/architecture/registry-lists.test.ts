import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driverRegistry, kindsOf } from '../../drivers/index.js';
import { loadConfig } from '../../src/config.js';
import { REPO_ROOT } from '../helpers/source-files.js';

/**
 * Lists derive from the registry (issue 42 item 8): `drivers/index.ts` is the one list of
 * families. `doctor`, `devices` and the contract suite walk it; the recovery matrix and the
 * architecture tests take their groups from it; and `npm start`'s demo (config/simulator.yaml)
 * must show every family, so a family that registers without joining the demo fails here.
 */
describe('lists of families derive from the registry', () => {
  it('npm start’s demo configures a device for every registered driver', () => {
    const demo = loadConfig(join(REPO_ROOT, 'config', 'simulator.yaml'));
    const shown = new Set(demo.devices.map((d) => d.driver));
    expect([...driverRegistry.keys()].filter((kind) => !shown.has(kind))).toEqual([]);
  });

  it('every registered kind belongs to exactly one group, and both RT families are printers', () => {
    const grouped = (['rt-printer', 'key-encoder', 'office-printer', 'simulated'] as const).flatMap(kindsOf);
    expect(grouped.sort()).toEqual([...driverRegistry.keys()].sort());
    expect(kindsOf('rt-printer')).toEqual(expect.arrayContaining(['epson-fpmate', 'custom-rt']));
  });
});
