import { Argument, Command, CommanderError, InvalidArgumentError } from 'commander';
import { driverRegistry } from '../drivers/index.js';
import type { CutKeysOptions } from '../src/cli/cut-keys.js';
import type { CliIo } from '../src/cli/io.js';
import { AgentError, isAgentError } from '../src/errors.js';
import '../src/catalogues.js';
import { agentVersion } from '../src/version.js';

export type { CliIo } from '../src/cli/io.js';

const EXAMPLES = `
Examples:
  frontdesk-agent run --config /etc/frontdesk-agent/agent.yaml
  frontdesk-agent check-config --config agent.yaml --online
  frontdesk-agent cut-keys --config agent.yaml --device 4c7c… --reservation 9f1e… --count 2
  frontdesk-agent simulate-platform --scenario config/scenarios/demo.yaml --port 8730
  frontdesk-agent devices
  frontdesk-agent test-page --config agent.yaml --device 63ef…
  frontdesk-agent doctor --config /etc/frontdesk-agent/agent.yaml
  frontdesk-agent support-bundle --config /etc/frontdesk-agent/agent.yaml
  frontdesk-agent completion bash > /usr/share/bash-completion/completions/frontdesk-agent
  frontdesk-agent report z --config agent.yaml --device d117…
  frontdesk-agent void --config agent.yaml --device d117… --receipt 0012-0034`;

function reportKind(value: string): 'x' | 'z' {
  const kind = value.toLowerCase();
  if (kind !== 'x' && kind !== 'z') throw new InvalidArgumentError('expected x or z');
  return kind;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port 0..65535');
  return n;
}

/*
 * Each subcommand's module is imported only when that subcommand runs: the daemon (`run`) never
 * loads the platform simulator, the device discovery or the one-shot clients, which would stay
 * resident for the process's whole life.
 */

/**
 * The whole command line as a commander program; actions report their exit code to `setExit`.
 * Shell completion is generated from this same object, so it cannot drift from it.
 */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('frontdesk-agent')
    .description('Front-desk device agent: platform commands to RT fiscal printers and key-card encoders.')
    .version(agentVersion(), '-V, --version')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .addHelpText('after', EXAMPLES);

  program
    .command('run')
    .description('run the agent (the systemd service runs this)')
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .action(async (opts: { config: string }) =>
      setExit(await (await import('../src/cli/run.js')).runCommand(opts, io, driverRegistry)),
    );

  program
    .command('check-config')
    .description('validate a configuration file; --online also checks the tokens and devices on the platform')
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .option('--online', 'ask the platform (devices/getAll)', false)
    .action(async (opts: { config: string; online: boolean }) =>
      setExit(
        await (await import('../src/cli/check-config.js')).checkConfigCommand(opts, io, driverRegistry),
      ),
    );

  program
    .command('simulate-platform')
    .description('run the platform simulator (a fake Connector API with WebSocket) until stopped')
    .option('-s, --scenario <file>', 'scenario file (YAML), e.g. config/scenarios/demo.yaml')
    .option('-p, --port <port>', 'port on 127.0.0.1 (0 = any free one)', port, 8730)
    .action(async (opts: { scenario?: string; port: number }) =>
      setExit(await (await import('../src/cli/simulate-platform.js')).simulatePlatformCommand(opts, io)),
    );

  program
    .command('cut-keys')
    .description('ask the platform to cut keys for a reservation, then follow the command to its end')
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .requiredOption('-d, --device <id>', 'the KeyCutter device id')
    .requiredOption('-r, --reservation <id>', 'the reservation id')
    .option('-n, --count <n>', 'number of keys', positiveInt, 1)
    .option('--enterprise <id>', 'enterprise id (portfolio tokens only)')
    .option('--no-follow', 'print the command id and return at once')
    .action(async (opts: CutKeysOptions) =>
      setExit(await (await import('../src/cli/cut-keys.js')).cutKeysCommand(opts, io)),
    );

  program
    .command('devices')
    .description(
      'list serial ports and HID devices that may be encoders, CUPS queues and IPP printers on the LAN, with suggested options',
    )
    .option('--json', 'print JSON', false)
    .option('--no-lan', 'do not browse the LAN (mDNS) for printers')
    .action(async (opts: { json: boolean; lan: boolean }) =>
      setExit(
        await (await import('../src/cli/devices.js')).devicesCommand(opts, io, { registry: driverRegistry }),
      ),
    );

  program
    .command('test-page')
    .description('print a one-page test PDF on a configured Printer device, through its driver')
    .requiredOption('--config <file>', 'configuration file')
    .requiredOption('--device <id>', 'the Printer device id')
    .option('--printer <name>', 'the platform printer name (default: the driver’s default printer)')
    .action(async (opts: { config: string; device: string; printer?: string }) =>
      setExit(await (await import('../src/cli/test-page.js')).testPageCommand(opts, io, driverRegistry)),
    );

  program
    .command('doctor')
    .description(
      'check configuration, tokens, platform, clock, devices, journal, disk and service; exit code = problems',
    )
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .option('--json', 'print JSON', false)
    .option('--unit <name>', 'the systemd unit to look at', 'frontdesk-agent.service')
    .option('--timeout <ms>', 'bound on each network step', positiveInt, 10_000)
    .action(async (opts: { config: string; json: boolean; unit: string; timeout: number }) =>
      setExit(
        await (await import('../src/cli/doctor.js')).doctorCommand(
          { config: opts.config, json: opts.json, unit: opts.unit, timeoutMs: opts.timeout },
          io,
          driverRegistry,
        ),
      ),
    );

  program
    .command('support-bundle')
    .description(
      'write one archive for support: redacted config, recent log, journal figures, devices, doctor',
    )
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .option(
      '-o, --output <file>',
      'the archive to write (default: frontdesk-agent-support-<time>.tar.gz here)',
    )
    .option('--hours <n>', 'how many hours of log to include', positiveInt, 6)
    .option('--log-file <file>', 'read the log from this file instead of journalctl')
    .option('--unit <name>', 'the systemd unit whose log journalctl reads', 'frontdesk-agent.service')
    .action(
      async (opts: { config: string; output?: string; hours: number; logFile?: string; unit: string }) =>
        setExit(
          await (await import('../src/cli/support-bundle.js')).supportBundleCommand(opts, io, driverRegistry),
        ),
    );

  // Device actions run in the agent that holds the device (src/cli/device-action.ts).
  program
    .command('report')
    .description(
      'print the X report, or run the daily closure (Z report), on a fiscal printer through the running agent',
    )
    .argument('<kind>', 'x (financial report) or z (daily closure)', reportKind)
    .requiredOption('-c, --config <file>', 'configuration file (YAML)')
    .requiredOption('-d, --device <id>', 'the fiscal device (id or name)')
    .action(async (kind: 'x' | 'z', opts: { config: string; device: string }) =>
      setExit(
        await (await import('../src/cli/device-action.js')).deviceActionCommand(
          { config: opts.config, device: opts.device, action: `${kind}-report`, params: {} },
          io,
        ),
      ),
    );

  // A receipt's two actions take the same options: the receipt, and the day it was printed.
  for (const [name, description] of [
    ['void', 'void (annullo) a receipt a fiscal printer printed, through the running agent'],
    [
      'reprint',
      'print a copy of a receipt from a fiscal printer’s electronic journal (not a fiscal document), through the running agent',
    ],
  ] as const) {
    program
      .command(name)
      .description(description)
      .requiredOption('-c, --config <file>', 'configuration file (YAML)')
      .requiredOption('-d, --device <id>', 'the fiscal device (id or name)')
      .requiredOption('-r, --receipt <number>', 'the receipt number, ZZZZ-NNNN (e.g. 0012-0034)')
      .option('--date <date>', 'the day it was printed, YYYY-MM-DD (default: the agent’s record of it)')
      .action(async (opts: { config: string; device: string; receipt: string; date?: string }) =>
        setExit(
          await (await import('../src/cli/device-action.js')).deviceActionCommand(
            {
              config: opts.config,
              device: opts.device,
              action: name,
              params: { receipt: opts.receipt, ...(opts.date ? { date: opts.date } : {}) },
            },
            io,
          ),
        ),
      );
  }

  program
    .command('login')
    .description(
      'print a one-time address that logs this PC’s browser in to the status page (staff, through the running agent)',
    )
    .option('-c, --config <file>', 'configuration file (YAML)', '/etc/frontdesk-agent/agent.yaml')
    .option('--open', 'open it in the browser, never on a command line other accounts can read')
    .action(async (opts: { config: string; open?: boolean }) =>
      setExit(await (await import('../src/cli/login.js')).loginCommand(opts, io)),
    );

  program
    .command('completion')
    .description('print the shell completion script for bash or zsh')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action(async (shell: 'bash' | 'zsh') => {
      const { completionScript } = await import('../src/cli/completion.js');
      io.stdout.write(completionScript(program, shell));
      setExit(0);
    });

  return program;
}

/**
 * Runs the command line and resolves to the process exit code. Errors become one clear sentence
 * on stderr (no stack trace): 1 for a failure, 2 for a usage mistake (an unknown command too,
 * even with --help after it).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  const first = argv[0];
  const known = (name: string) => name === 'help' || program.commands.some((c) => c.name() === name);
  // commander answers `<unknown> --help` with the global help and exit 0; parsing the unknown
  // word alone makes it say "unknown command" (with a suggestion) and fail as a usage mistake.
  const args = first !== undefined && !first.startsWith('-') && !known(first) ? [first] : [...argv];
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    io.stderr.write(`frontdesk-agent: ${describe(error)}\n`);
    return 1;
  }
}

/** One sentence for a person; never a stack trace, never a secret. */
export function describe(error: unknown): string {
  if (isAgentError(error)) return error.message;
  if (error instanceof Error) return new AgentError('INTERNAL', error.message).message;
  return String(error);
}
