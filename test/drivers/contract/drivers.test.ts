import { describe, expect, it } from 'vitest';
import { driverRegistry } from '../../../drivers/index.js';
import { driverContract } from './contract.js';
import { contractEntries } from './entries/index.js';

describe('the driver contract suite covers every driver', () => {
  it('has an entry for each driver kind this build knows', () => {
    const covered = new Set(contractEntries.map((e) => e.kind));
    expect([...driverRegistry.keys()].filter((kind) => !covered.has(kind))).toEqual([]);
  });
});

for (const entry of contractEntries) driverContract(entry);
