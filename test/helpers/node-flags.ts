import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SHEBANG = /^#!\/usr\/bin\/env (?:-S )?node((?: --[a-z0-9-]+(?:=[A-Za-z0-9._-]+)?)*)\s*$/;

/**
 * The node flags of a script's first line, `#!/usr/bin/env -S node --flag…` (none for a plain
 * `#!/usr/bin/env node`). Throws when the first line is not such a shebang. The agent's bin
 * (`src/main.ts`, compiled to `dist/src/main.js` with the same line) carries its runtime flags
 * there; the systemd launcher, `npm start` and the bench run node with the same ones.
 */
export function shebangNodeFlags(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const m = SHEBANG.exec(first);
  if (!m) throw new Error(`${file} does not start with a #!/usr/bin/env node line: ${first}`);
  return (m[1] ?? '').split(' ').filter(Boolean);
}

/** The flags of the agent's own shebang, space-separated. */
export function nodeFlags(): string {
  return shebangNodeFlags(join(import.meta.dirname, '..', '..', 'src', 'main.ts')).join(' ');
}
