import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger, errorFields } from '../../src/log.js';
import { sourceMappedStack } from '../../src/stack-map.js';
import { EscapedFaults, stackFiles } from '../../src/supervision/escaped-faults.js';
import { tempDir } from '../helpers/daemon.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

/**
 * Stack traces of a bundled program name the original sources: a small module laid out like the
 * agent's (`src/connector/websocket.ts`), bundled and minified by esbuild with a linked source
 * map as scripts/bundle.ts does, throws in a plain node; its frames then read `websocket.ts` and
 * the line of the `throw`, in the log's stack and for the process guard.
 */
const THROW_LINE = 6;
const SOURCE = [
  'export class ConnectorSocket {',
  '  private events = 0;',
  '  handleMessage(text: string): number {',
  '    const parsed = JSON.parse(text) as { Events?: unknown[] };',
  '    this.events += parsed.Events?.length ?? 0;',
  "    if (!parsed.Events) throw new TypeError('no Events in the message');",
  '    return this.events;',
  '  }',
  '}',
  '',
].join('\n');

describe('source-mapped stack traces', () => {
  const dir = tempDir('stack-map');
  let thrown: Error;

  beforeAll(async () => {
    mkdirSync(join(dir, 'src', 'connector'), { recursive: true });
    writeFileSync(join(dir, 'src', 'connector', 'websocket.ts'), SOURCE);
    await build({
      absWorkingDir: dir,
      entryPoints: ['src/connector/websocket.ts'],
      outfile: join(dir, 'dist', 'app', 'main.js'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      minify: true,
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'silent',
    });
    // Thrown in a plain node (no source maps): vitest's own process would already map the frames.
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { ConnectorSocket } = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist', 'app', 'main.js')).href)});
         try { new ConnectorSocket().handleMessage('{}'); } catch (e) { process.stdout.write(e.stack); }`,
      ],
      { encoding: 'utf8' },
    );
    thrown = new TypeError('no Events in the message');
    thrown.stack = run.stdout;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the raw stack names the bundle; the mapped one names the source file and the line of the throw', () => {
    expect(thrown.stack).toContain(join(dir, 'dist', 'app', 'main.js'));
    const mapped = sourceMappedStack(thrown.stack ?? '');
    expect(mapped).toContain(`${join(dir, 'src', 'connector', 'websocket.ts')}:${THROW_LINE}:`);
    expect(mapped).not.toContain('main.js');
    expect(mapped.split('\n')[0]).toBe('TypeError: no Events in the message');
    expect(errorFields(thrown).stack).toBe(mapped);
  });

  it('the process guard reads the original file: the place in the log and the component to restart', async () => {
    expect(stackFiles(thrown)[0]).toEqual({
      file: join(dir, 'src', 'connector', 'websocket.ts'),
      line: THROW_LINE,
    });
    const restarted: string[] = [];
    const faults = new EscapedFaults({ clock: new ManualClock(), log: createMemoryLogger() });
    const source = join(dir, 'src', 'connector', 'websocket.ts');
    faults.register({
      name: 'websocket',
      owns: (file) => file === source,
      restart: async () => void restarted.push('ws'),
    });
    const fault = faults.report(thrown, 'uncaughtException');
    expect(fault).toMatchObject({
      where: `src/connector/websocket.ts:${THROW_LINE}`,
      component: 'websocket',
    });
    await letPendingWorkRun();
    expect(restarted).toEqual(['ws']);
  });

  it('leaves frames without a map as they are', () => {
    const stack = [
      'Error: x',
      '    at f (/nowhere/dist/app/chunks/run-ABC.js:1:2345)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n');
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});
