import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SHEBANG =
  /^#!\/usr\/bin\/env (?:-S )?((?:[A-Z_]+=[A-Za-z0-9._-]+ )*)node((?: --[a-z0-9-]+(?:=[A-Za-z0-9._-]+)?)*)\s*$/;

/** How a script's first line runs node: environment assignments and node flags. */
export interface ShebangLaunch {
  env: Record<string, string>;
  flags: string[];
}

/**
 * Reads a script's first line, `#!/usr/bin/env -S [NAME=value…] node [--flag…]` (or a plain
 * `#!/usr/bin/env node`). Throws when the first line is not such a shebang. The agent's bin
 * (`app/main.ts`, compiled to `dist/app/main.js` with the same line) carries its runtime settings
 * there; the systemd launcher, `npm start` and the bench run node with the same ones.
 */
export function shebangLaunch(file: string): ShebangLaunch {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const m = SHEBANG.exec(first);
  if (!m) throw new Error(`${file} does not start with a #!/usr/bin/env node line: ${first}`);
  const env = Object.fromEntries(
    (m[1] ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => pair.split('=', 2) as [string, string]),
  );
  return { env, flags: (m[2] ?? '').split(' ').filter(Boolean) };
}

const agentMain = join(import.meta.dirname, '..', '..', 'app', 'main.ts');

/** The node flags of the agent's own shebang, space-separated. */
export function nodeFlags(): string {
  return shebangLaunch(agentMain).flags.join(' ');
}

/** The environment assignments of the agent's own shebang, `NAME=value …`. */
export function nodeEnv(): string {
  return Object.entries(shebangLaunch(agentMain).env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}
