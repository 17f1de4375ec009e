import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import type { Check } from './doctor-report.js';
import { type JournalStatistics, readJournalStatistics } from './journal-statistics.js';
import { doctorMessages as m } from './messages.js';
import { findProgram, runProgram } from './programs.js';

/**
 * Doctor's checks of this PC: the journal (integrity with `PRAGMA quick_check` on a read-only
 * connection, writable by the agent, a few figures), the free disk space where it lives, and the
 * systemd unit's state when systemd runs here. Their words are in `say`'s language (English unless
 * told).
 */

const ENGLISH = messageRenderer('en');

/** Less free space than this on the journal's file system is a failure. */
export const MIN_FREE_BYTES = 100 * 1024 * 1024;

function unwritableFix(path: string, code: string | undefined, say: MessageRenderer): string[] {
  const dir = dirname(path);
  if (code === 'EROFS') return [say.render(m.readOnlyFix({ dir }))];
  return [say.render(m.chownFix({ dir })), say.render(m.immutableFix({ path }))];
}

/** The journal check, plus its statistics for the support bundle. */
export function checkJournal(
  config: Config,
  say: MessageRenderer = ENGLISH,
): { check: Check; statistics?: JournalStatistics } {
  /** The journal check with `status` and `summary`, and any `fix` or `details`. */
  const journal = (
    status: Check['status'],
    summary: string,
    more: Pick<Check, 'fix' | 'details'> = {},
  ): Check => ({
    id: 'journal',
    title: say.render(m.titleJournal()),
    status,
    summary,
    ...more,
  });
  if (config.journal.path === ':memory:')
    return {
      check: journal('skip', say.render(m.journalInMemory())),
    };
  const path = resolve(config.journal.path);
  const dir = dirname(path);
  if (!existsSync(path)) {
    // The agent creates the file, and its directory, at its first start.
    const where = nearestExisting(dir);
    try {
      accessSync(where, constants.W_OK);
      return {
        check: journal('ok', say.render(m.journalNotYet({ path }))),
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        check: journal('fail', say.render(m.journalCannotCreate({ path, where, code: code ?? 'error' })), {
          fix: unwritableFix(join(where, basename(path)), code, say),
        }),
      };
    }
  }
  // Everything SQLite must be able to write: the file, its WAL companions and the directory.
  for (const target of [path, `${path}-wal`, `${path}-shm`, dir]) {
    if (target !== dir && !existsSync(target)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        check: journal('fail', say.render(m.journalCannotWrite({ target, code: code ?? 'error' })), {
          fix: unwritableFix(path, code, say),
        }),
      };
    }
  }
  let statistics: JournalStatistics;
  try {
    statistics = readJournalStatistics(path);
  } catch (error) {
    return {
      check: journal('fail', say.render(m.journalUnreadable({ path, error: (error as Error).message })), {
        fix: [say.render(m.journalUnreadableFix({ dir }))],
      }),
    };
  }
  if (statistics.quickCheck !== 'ok') {
    return {
      check: journal('fail', say.render(m.journalCorrupt({ result: statistics.quickCheck })), {
        fix: [say.render(m.journalCorruptFix({ dir }))],
      }),
      statistics,
    };
  }
  const mb = (statistics.fileBytes + statistics.walBytes) / 1024 / 1024;
  return {
    check: journal('ok', say.render(m.journalOk({ path, mb })), {
      details: [say.render(figures(statistics))],
    }),
    statistics,
  };
}

function figures(statistics: JournalStatistics) {
  const counts = {
    total: statistics.commands.total,
    inFlight: statistics.commands.inFlight,
    pending: statistics.outbox.pending,
  };
  const age = statistics.outbox.oldestAgeSeconds;
  return age === undefined ? m.journalFigures(counts) : m.journalFiguresOldest({ ...counts, age });
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

export function checkDisk(config: Config, say: MessageRenderer = ENGLISH): Check {
  const title = say.render(m.titleDisk());
  if (config.journal.path === ':memory:')
    return { id: 'disk', title, status: 'skip', summary: say.render(m.diskInMemory()) };
  const where = nearestExisting(dirname(resolve(config.journal.path)));
  try {
    const fs = statfsSync(where);
    const free = fs.bavail * fs.bsize;
    const total = fs.blocks * fs.bsize;
    const gb = (n: number) => n / 1024 ** 3;
    const percent = total > 0 ? Math.round((free / total) * 100) : 0;
    const summary = say.render(m.diskFree({ free: gb(free), total: gb(total), percent, where }));
    if (free >= MIN_FREE_BYTES) return { id: 'disk', title, status: 'ok', summary };
    return {
      id: 'disk',
      title,
      status: 'fail',
      summary,
      fix: [say.render(m.diskFix({ mb: MIN_FREE_BYTES / 1024 / 1024 }))],
    };
  } catch (error) {
    return {
      id: 'disk',
      title,
      status: 'skip',
      summary: say.render(m.cannotRead({ where, error: (error as Error).message })),
    };
  }
}

/** The properties doctor reads from `systemctl show`. */
const PROPERTIES = ['LoadState', 'ActiveState', 'SubState', 'Result', 'NRestarts', 'ActiveEnterTimestamp'];

export async function checkSystemd(
  unit: string,
  env: NodeJS.ProcessEnv,
  say: MessageRenderer = ENGLISH,
): Promise<Check> {
  const title = say.render(m.titleSystemd());
  const inside = env.INVOCATION_ID ? [say.render(m.insideUnit({ id: env.INVOCATION_ID }))] : [];
  const systemctl = findProgram('systemctl', env);
  if (!systemctl)
    return { id: 'systemd', title, status: 'skip', summary: say.render(m.noSystemctl()), details: inside };
  const run = await runProgram(
    systemctl,
    ['show', unit, '--no-pager', `--property=${PROPERTIES.join(',')}`],
    {
      env,
      timeoutMs: 5000,
    },
  );
  if (run.code !== 0) {
    const why = (run.stderr.trim().split('\n')[0] ?? '') || `exit code ${run.code}`;
    return {
      id: 'systemd',
      title,
      status: 'skip',
      summary: say.render(m.systemdSilent({ why })),
      details: inside,
    };
  }
  const props = Object.fromEntries(
    run.stdout
      .split('\n')
      .map((line) => /^(\w+)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1] as string, m[2] as string]),
  );
  if (props.LoadState !== 'loaded') {
    return {
      id: 'systemd',
      title,
      status: 'skip',
      summary: say.render(m.notInstalled({ unit, state: props.LoadState ?? 'unknown' })),
      details: inside,
    };
  }
  const restarts = Number(props.NRestarts ?? 0);
  const details = [
    ...inside,
    ...(props.ActiveEnterTimestamp ? [say.render(m.activeSince({ since: props.ActiveEnterTimestamp }))] : []),
    ...(restarts > 0 ? [say.render(m.restarted({ count: restarts, unit }))] : []),
  ];
  const state = `${props.ActiveState} (${props.SubState})${props.Result && props.Result !== 'success' ? `, result ${props.Result}` : ''}`;
  if (props.ActiveState === 'active')
    return { id: 'systemd', title, status: 'ok', summary: `${unit}: ${state}`, details };
  return {
    id: 'systemd',
    title,
    status: 'fail',
    summary: `${unit}: ${state}`,
    details,
    fix: [say.render(m.unitStoppedFix({ unit }))],
  };
}
