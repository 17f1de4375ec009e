import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createDaemon, tempDir } from '../test/helpers/daemon.js';
import { shebangLaunch } from '../test/helpers/node-flags.js';
import { inspectorUrl } from './inspector.js';
import { findPid } from './proc.js';
import { BENCH_TOKENS } from './world.js';

/**
 * The contestants as child processes with one interface: our real daemon and the naive
 * baseline. Under tsx (`npm start`'s form; our daemon through the e2e helper `createDaemon`) or
 * as compiled JavaScript (the installed form, `build.ts`), so memory and CPU compare like with like.
 */
export interface Contestant {
  readonly name: string;
  readonly pid: number;
  /** The DevTools address when started with the inspector (see `inspector.ts`). */
  readonly inspector?: string | undefined;
  /** Our agent: the directory of its journal and of the simulated devices' ledgers. */
  readonly dataDir?: string;
  start(): Promise<void>;
  /** SIGTERM and wait; resolves to the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (a crash) and wait for the exit; `start()` again starts it on the same journal. */
  kill?(): Promise<void>;
}

export interface AgentSetup {
  url: string;
  wsUrl: string;
  /** Our agent only: use the platform's WebSocket. */
  websocket: boolean;
  rateLimit: { requests: number; windowSeconds: number };
  /** Poll interval (ours: `poll.intervalMs`; naive: its fixed sleep). */
  pollMs: number;
  /** Ours: `poll.safetyNetMs`. */
  safetyNetMs: number;
  /** Ours: the `devices:` block (each entry's `id` is a platform device the baseline serves too). */
  devices: ReadonlyArray<{ id: string } & Record<string, unknown>>;
  /**
   * The baseline's device time per command when the commands carry no simulated duration (a
   * world of real drivers): it sleeps this long instead of driving a device.
   */
  naiveJobMs?: number;
}

export type ContestantFactory = (setup: AgentSetup) => Contestant;

const root = join(import.meta.dirname, '..');
const tokenEnv = {
  FRONTDESK_CLIENT_TOKEN: BENCH_TOKENS.clientToken,
  FRONTDESK_ACCESS_TOKEN: BENCH_TOKENS.accessToken,
  NAIVE_CLIENT_TOKEN: BENCH_TOKENS.clientToken,
  NAIVE_ACCESS_TOKEN: BENCH_TOKENS.accessToken,
};

function agentConfig(setup: AgentSetup, dir: string) {
  // Simulated devices keep their ledgers in the agent's own directory.
  const devices = setup.devices.map((d) =>
    d.driver === 'sim-fiscal' || d.driver === 'sim-encoder'
      ? { ...d, options: { ...(d.options as object), ledgerPath: join(dir, `ledger-${d.id}.jsonl`) } }
      : d,
  );
  return {
    version: 1,
    platform: {
      url: setup.url,
      ...(setup.websocket ? { websocketUrl: setup.wsUrl } : {}),
      rateLimit: setup.rateLimit,
    },
    poll: { intervalMs: setup.pollMs, safetyNetMs: setup.safetyNetMs, fiscalLookbackHours: 24 },
    log: { level: 'info' },
    journal: { path: join(dir, 'journal.db') },
    status: { listen: '127.0.0.1:0' },
    devices,
  };
}

/**
 * Our daemon started by the e2e helper: as installed when `bundle` names the bundle's `main.js`
 * (node with the flags of its shebang), else under tsx.
 */
export function ourAgent(bundle?: string): ContestantFactory {
  return (setup) => tsxOrBundled(setup, bundle);
}

function tsxOrBundled(setup: AgentSetup, bundle: string | undefined): Contestant {
  const dir = tempDir('bench-agent');
  const daemon = createDaemon({
    config: agentConfig(setup, dir),
    env: tokenEnv,
    startTimeoutMs: 60_000,
    ...(bundle ? { bundle, nodeFlags: benchNodeFlags(shebangLaunch(bundle).flags) } : {}),
  });
  let pid = 0;
  let ended: () => void = () => undefined;
  return {
    name: bundle ? 'agent (installed)' : 'agent (tsx)',
    get pid() {
      return pid;
    },
    async start() {
      // Known by its config's path from before it is spawned: a bench stopped during the start
      // (before the pid is known) must not leave it running.
      ended = killedWithTheBench(daemon.configPath);
      await daemon.start();
      pid = findPid(daemon.configPath);
    },
    stop: async () => {
      const code = await daemon.stop();
      ended();
      return code;
    },
  };
}

/**
 * Our daemon compiled (`<build>/app/main.js run`), as the systemd unit runs it: node with the flags
 * and environment of the script's shebang (the installed launcher does the same, see systemd/install.sh); with `inspect`,
 * under `--inspect=127.0.0.1:0` so the bench can force a GC; with `watchdogSec`, with the
 * environment systemd gives a unit with `WatchdogSec=` (the agent then runs its watchdog loop).
 */
export function builtAgent(build: string, inspect = false, watchdogSec?: number): ContestantFactory {
  return (setup) => {
    const dir = tempDir('bench-built');
    const configPath = join(dir, 'agent.yaml');
    writeFileSync(configPath, stringify(agentConfig(setup, dir)));
    const script = join(build, 'app', 'main.js');
    const launch = shebangLaunch(script);
    const contestant = childContestant(
      watchdogSec ? 'agent (built, watchdog)' : 'agent (built)',
      script,
      ['run', '--config', configPath],
      /status page at/,
      {
        inspect,
        nodeFlags: benchNodeFlags(launch.flags),
        env: { ...launch.env, ...(watchdogSec ? { WATCHDOG_USEC: String(watchdogSec * 1_000_000) } : {}) },
      },
    );
    return Object.assign(contestant, { dataDir: dir });
  };
}

/**
 * The agent's node flags for a bench run: its shebang's, unless the environment asks otherwise,
 * to choose the runtime flags by measuring (issue 26.3). `BENCH_SEMI_SPACE_MB=N` replaces
 * `--max-semi-space-size` (`default` leaves V8's own); `BENCH_CPU_PROF=DIR` writes a CPU profile
 * of each agent process there (`--cpu-prof`); `BENCH_NODE_FLAGS="--a --b"` adds node flags.
 */
function benchNodeFlags(flags: readonly string[]): string[] {
  const semi = process.env.BENCH_SEMI_SPACE_MB;
  const profile = process.env.BENCH_CPU_PROF;
  let out = [...flags];
  if (semi !== undefined) {
    out = out.filter((f) => !f.startsWith('--max-semi-space-size'));
    if (semi !== 'default') out.push(`--max-semi-space-size=${Number(semi)}`);
  }
  if (profile) out.push('--cpu-prof', `--cpu-prof-dir=${profile}`);
  const extra = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  return [...out, ...extra];
}

/** The naive baseline, under tsx or compiled when `build` is given. */
export function naiveAgent(build?: string, inspect = false): ContestantFactory {
  return (setup) => {
    const options = {
      url: setup.url,
      deviceIds: setup.devices.map((d) => d.id),
      sleepMs: setup.pollMs,
      ...(setup.naiveJobMs !== undefined ? { fixedJobMs: setup.naiveJobMs } : {}),
      retryMs: 1000,
      attempts: 5,
    };
    const args = [JSON.stringify(options)];
    return build
      ? childContestant('naive (built)', join(build, 'bench', 'naive-main.js'), args, /naive agent ready/, {
          inspect,
        })
      : childContestant('naive (tsx)', join(root, 'bench', 'naive-main.ts'), args, /naive agent ready/, {
          tsx: true,
          inspect,
        });
  };
}

function childContestant(
  name: string,
  script: string,
  args: string[],
  ready: RegExp,
  flags: { tsx?: boolean; inspect?: boolean; nodeFlags?: string[]; env?: Record<string, string> } = {},
): Contestant {
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  let inspector: string | undefined;
  const tail: string[] = [];
  const nodeArgs = [
    ...(flags.tsx ? ['--import', 'tsx'] : []),
    ...(flags.inspect ? ['--inspect=127.0.0.1:0'] : []),
    ...(flags.nodeFlags ?? []),
  ];
  return {
    name,
    get pid() {
      return child?.pid ?? 0;
    },
    get inspector() {
      return inspector;
    },
    async start() {
      const proc = spawn(process.execPath, [...nodeArgs, script, ...args], {
        cwd: root,
        env: { ...process.env, ...tokenEnv, NOTIFY_SOCKET: '', ...flags.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      proc.on('exit', killedWithTheBench(proc.pid));
      exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} not ready after 60 s`)), 60_000);
        const onData = (chunk: Buffer) => {
          const text = chunk.toString('utf8');
          tail.push(text);
          if (tail.length > 20) tail.shift();
          inspector ??= inspectorUrl(text);
          if (ready.test(tail.join(''))) {
            clearTimeout(timer);
            resolve();
          }
        };
        proc.stdout?.on('data', onData);
        proc.stderr?.on('data', onData);
        proc.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`${name} exited (${code}) before it was ready:\n${tail.join('')}`));
        });
      });
    },
    async stop() {
      child?.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child?.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Contestants still running, killed if the bench itself ends first: by pid, or by a marker in the
 * command line (`findPid`) for one whose pid is not known yet.
 */
const running = new Set<number | string>();
let exitHooked = false;

/**
 * A contestant never outlives the bench: a bench stopped by Ctrl-C or `kill` (whose `finally`
 * blocks do not run) would otherwise leave an agent polling its dead simulator. The signals
 * become an exit, and the exit kills what still runs. `which` is the pid, or a marker of the
 * command line for a process being started (its pid unknown yet). Returns the call that says it
 * has ended.
 */
function killedWithTheBench(which: number | string | undefined): () => void {
  if (which === undefined) return () => undefined;
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      for (const each of running) {
        try {
          process.kill(typeof each === 'number' ? each : findPid(each), 'SIGKILL');
        } catch {
          // Already gone, or never started.
        }
      }
    });
    process.once('SIGINT', () => process.exit(130));
    process.once('SIGTERM', () => process.exit(143));
  }
  running.add(which);
  return () => running.delete(which);
}
