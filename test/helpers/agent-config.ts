import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * Writes `agent.yaml` into `dir` for a command-line test: version 1, English, a journal in `dir`,
 * and `document`'s keys over those. Returns the file's path.
 */
export function writeAgentConfig(dir: string, document: Record<string, unknown>): string {
  const path = join(dir, 'agent.yaml');
  writeFileSync(
    path,
    stringify({ version: 1, locale: 'en', journal: { path: join(dir, 'journal.db') }, ...document }),
    { mode: 0o600 },
  );
  return path;
}
