import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The agent's version from its package.json, found by walking up from this file (it sits at
 * `src/` when run with tsx and in `dist/app/` or `dist/app/chunks/` when bundled). "0.0.0" if it cannot be read.
 */
export function agentVersion(): string {
  let dir = import.meta.dirname;
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'frontdesk-agent' && pkg.version) return pkg.version;
      } catch {
        // keep walking
      }
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

/** The `Client` string the platform sees: "frontdesk-agent 1.2.0". */
export function clientName(): string {
  return `frontdesk-agent ${agentVersion()}`;
}
