/**
 * What a closed stdout or stderr does (`frontdesk-agent report --help | head -1`: the reader has
 * gone). A one-shot command ends at once and quietly, as a Unix tool killed by SIGPIPE does (exit
 * 141), never with a stack trace. The daemon (`run`) keeps working: a lost log stream must not
 * stop receipts; its lines are dropped until the process is restarted.
 */
export const CLOSED_PIPE_EXIT = 141;

/** The first operand of the command line: the subcommand. */
function subcommand(argv: readonly string[]): string | undefined {
  return argv.find((arg) => !arg.startsWith('-'));
}

export function guardClosedPipes(
  argv: readonly string[],
  streams: readonly NodeJS.WritableStream[],
  exit: (code: number) => void,
): void {
  const daemon = subcommand(argv) === 'run' && !argv.some((arg) => arg === '-h' || arg === '--help');
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (daemon) return;
      exit(error.code === 'EPIPE' ? CLOSED_PIPE_EXIT : 1);
    });
  }
}
