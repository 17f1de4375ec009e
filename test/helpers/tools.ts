import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Finds an executable on PATH (or at an absolute path); undefined when absent. */
export function findExecutable(name: string): string | undefined {
  const candidates = name.startsWith('/')
    ? [name]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

/** True when running under CI, where a missing tool is a failure, never a silent skip. */
export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Decides whether a test that needs `tool` runs. Returns true when the tool is present. Under
 * CI a missing tool throws (the test fails); on a developer's machine the test is skipped and
 * says why.
 */
export function requireTool(tool: string, why: string): boolean {
  if (findExecutable(tool)) return true;
  const message = `${tool} is required (${why}) but was not found`;
  if (inCi) throw new Error(`${message}; CI must install it (see .ci/run)`);
  console.warn(`skipping: ${message}`);
  return false;
}
