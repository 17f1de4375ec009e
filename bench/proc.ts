import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Readings of a process from Linux `/proc`: resident memory (`VmRSS` of `/proc/<pid>/status`) and
 * CPU time used (`utime + stime` of `/proc/<pid>/stat`, in clock ticks). Each reader throws when
 * the process is gone, so a benchmark never reports a figure of a dead process.
 */

/** Resident set size in bytes. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** User + system CPU time in clock ticks (see `clockTicksPerSecond`). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`bad /proc/${pid}/stat`);
  return utime + stime;
}

/**
 * Where a process's resident memory lies, from `/proc/<pid>/smaps`, largest first: the node
 * binary's pages, its machine code apart from its data (the builtin modules' sources and code
 * cache, ICU's data, V8's startup snapshot, all read from the executable), anonymous memory (V8's heap and code, and malloc's mmapped blocks), malloc's
 * `[heap]`, native add-ons (`*.node`), and other shared libraries together.
 */
export function rssByMapping(pid: number): Array<{ what: string; bytes: number }> {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const groups = new Map<string, number>();
  let what = '';
  for (const line of smaps.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      what = mappingGroup(head[2] ?? '', head[1] ?? '', process.execPath);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups.set(what, (groups.get(what) ?? 0) + Number(rss[1]) * 1024);
  }
  return [...groups]
    .map(([group, bytes]) => ({ what: group, bytes }))
    .filter((g) => g.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}

function mappingGroup(path: string, perms: string, node: string): string {
  if (path === '') return 'anonymous (V8 heap and code, large malloc blocks)';
  if (path === node && perms.includes('x')) return 'node executable: machine code (V8, ICU, libuv, OpenSSL)';
  if (path === node) return 'node executable: data (builtin modules, ICU data, V8 snapshot)';
  if (path === '[heap]') return 'malloc heap ([heap])';
  if (path === '[stack]') return 'main thread stack';
  if (path.endsWith('.node')) return `add-on ${path.slice(path.lastIndexOf('/') + 1)}`;
  if (path.includes('.so')) return 'shared libraries';
  return 'other mappings';
}

let ticks: number | undefined;
/** `getconf CLK_TCK` (100 on every common Linux). */
export function clockTicksPerSecond(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** The pid of the process whose command line contains `marker` (e.g. a unique config path). */
export function findPid(marker: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes(marker)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no process with ${marker} in its command line`);
}

/** Machine facts for the results: cores, memory, node version, load. */
export function machine(): { cores: number; memoryMb: number; node: string; loadavg: string; cpu: string } {
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const total = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1] ?? 0);
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown CPU';
  return {
    cores: Number(execFileSync('nproc', { encoding: 'utf8' }).trim()),
    memoryMb: Math.round(total / 1024),
    node: process.version,
    loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    cpu: model,
  };
}
