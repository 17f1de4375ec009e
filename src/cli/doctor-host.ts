import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import type { Check } from './doctor-report.js';
import { type JournalStatistics, readJournalStatistics } from './journal-statistics.js';
import { findProgram, runProgram } from './programs.js';

/**
 * Doctor's checks of this PC: the journal (integrity with `PRAGMA quick_check` on a read-only
 * connection, writable by the agent, a few figures), the free disk space where it lives, and the
 * systemd unit's state when systemd runs here.
 */

/** Less free space than this on the journal's file system is a failure. */
export const MIN_FREE_BYTES = 100 * 1024 * 1024;

function unwritableFix(path: string, code: string | undefined): string[] {
  const dir = dirname(path);
  if (code === 'EROFS')
    return [
      `The file system holding ${dir} is read-only: check \`findmnt -T ${dir}\` and the disk's health (sudo dmesg), then remount it read-write.`,
    ];
  return [
    `Give the journal back to the service user: sudo chown -R frontdesk-agent: ${dir} && sudo chmod -R u+rwX ${dir}.`,
    `If that is already so, \`lsattr ${path}\` may show the immutable flag: sudo chattr -i ${path}.`,
  ];
}

/** The journal check with `status` and `summary`, and any `fix` or `details`. */
function journal(status: Check['status'], summary: string, more: Pick<Check, 'fix' | 'details'> = {}): Check {
  return { id: 'journal', title: 'journal', status, summary, ...more };
}

/** The journal check, plus its statistics for the support bundle. */
export function checkJournal(config: Config): { check: Check; statistics?: JournalStatistics } {
  if (config.journal.path === ':memory:')
    return {
      check: journal('skip', 'in memory (:memory:), nothing to check'),
    };
  const path = resolve(config.journal.path);
  const dir = dirname(path);
  if (!existsSync(path)) {
    // The agent creates the file, and its directory, at its first start.
    const where = nearestExisting(dir);
    try {
      accessSync(where, constants.W_OK);
      return {
        check: journal('ok', `${path} does not exist yet; the agent creates it at its first start`),
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        check: journal(
          'fail',
          `${path} does not exist and the agent cannot create it: ${where} cannot be written (${code})`,
          {
            fix: unwritableFix(join(where, basename(path)), code),
          },
        ),
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
        check: journal(
          'fail',
          `the agent cannot write ${target} (${code}): it would stop recording, and refuse to start`,
          {
            fix: unwritableFix(path, code),
          },
        ),
      };
    }
  }
  let statistics: JournalStatistics;
  try {
    statistics = readJournalStatistics(path);
  } catch (error) {
    return {
      check: journal('fail', `${path} cannot be read as a journal: ${(error as Error).message}`, {
        fix: [
          `Stop the agent, keep a copy of ${dir}, and send a support bundle (frontdesk-agent support-bundle): the journal is the record of receipts that refunds refer to, never delete it.`,
        ],
      }),
    };
  }
  if (statistics.quickCheck !== 'ok') {
    return {
      check: journal('fail', `integrity check failed: ${statistics.quickCheck}`, {
        fix: [
          `Stop the agent (sudo systemctl stop frontdesk-agent), keep a copy of ${dir}, and send a support bundle: the journal is the record of receipts that refunds refer to, never delete it.`,
        ],
      }),
      statistics,
    };
  }
  const mb = ((statistics.fileBytes + statistics.walBytes) / 1024 / 1024).toFixed(1);
  return {
    check: journal('ok', `${path}: integrity ok, writable, ${mb} MB`, {
      details: [
        `${statistics.commands.total} commands kept, ${statistics.commands.inFlight} in flight; ${statistics.outbox.pending} results waiting${
          statistics.outbox.oldestAgeSeconds === undefined
            ? ''
            : ` (oldest ${statistics.outbox.oldestAgeSeconds} s)`
        }`,
      ],
    }),
    statistics,
  };
}

function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

export function checkDisk(config: Config): Check {
  const title = 'disk';
  if (config.journal.path === ':memory:')
    return { id: 'disk', title, status: 'skip', summary: 'the journal is in memory' };
  const where = nearestExisting(dirname(resolve(config.journal.path)));
  try {
    const fs = statfsSync(where);
    const free = fs.bavail * fs.bsize;
    const total = fs.blocks * fs.bsize;
    const gb = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GB`;
    const percent = total > 0 ? Math.round((free / total) * 100) : 0;
    const summary = `${gb(free)} free of ${gb(total)} (${percent} %) where the journal lives (${where})`;
    if (free >= MIN_FREE_BYTES) return { id: 'disk', title, status: 'ok', summary };
    return {
      id: 'disk',
      title,
      status: 'fail',
      summary,
      fix: [
        `Free space on that file system (at least ${MIN_FREE_BYTES / 1024 / 1024} MB): sudo journalctl --vacuum-size=200M, old files in /var/log and /tmp.`,
      ],
    };
  } catch (error) {
    return {
      id: 'disk',
      title,
      status: 'skip',
      summary: `cannot read ${where}: ${(error as Error).message}`,
    };
  }
}

/** The properties doctor reads from `systemctl show`. */
const PROPERTIES = ['LoadState', 'ActiveState', 'SubState', 'Result', 'NRestarts', 'ActiveEnterTimestamp'];

export async function checkSystemd(unit: string, env: NodeJS.ProcessEnv): Promise<Check> {
  const title = 'systemd';
  const inside = env.INVOCATION_ID
    ? [`doctor itself runs in a systemd unit (INVOCATION_ID ${env.INVOCATION_ID})`]
    : [];
  const systemctl = findProgram('systemctl', env);
  if (!systemctl)
    return { id: 'systemd', title, status: 'skip', summary: 'no systemctl on this PC', details: inside };
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
      summary: `systemd does not answer here: ${why}`,
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
      summary: `${unit} is not installed as a service (LoadState ${props.LoadState ?? 'unknown'}); systemd/install.sh installs it`,
      details: inside,
    };
  }
  const restarts = Number(props.NRestarts ?? 0);
  const details = [
    ...inside,
    ...(props.ActiveEnterTimestamp ? [`active since ${props.ActiveEnterTimestamp}`] : []),
    ...(restarts > 0 ? [`systemd restarted it ${restarts} times: journalctl -u ${unit} shows why`] : []),
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
    fix: [`journalctl -u ${unit} -e says why it stopped; start it with: sudo systemctl restart ${unit}.`],
  };
}
