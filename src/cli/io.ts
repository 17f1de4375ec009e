/**
 * What the command line gets from the process. Only `app/main.ts` touches `process`; everything
 * below it receives these, so the CLI runs in tests with captured streams and fake signals.
 */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /**
   * Calls `handler` on each SIGTERM/SIGINT until the returned function is called. The process
   * must not die on those signals while a handler is registered.
   */
  onSignal(handler: (signal: 'SIGTERM' | 'SIGINT') => void): () => void;
  /**
   * Calls `handler` with every error that escaped all handlers (uncaughtException,
   * unhandledRejection) until the returned function is called; the process goes on meanwhile.
   * Without a handler such an error is one line on stderr (and exit 1 for an exception).
   */
  onEscapedError?(
    handler: (error: unknown, origin: 'uncaughtException' | 'unhandledRejection') => void,
  ): () => void;
}

/** Resolves on the first SIGTERM/SIGINT; `again` is called on every later one. */
export function firstSignal(io: CliIo, again: (signal: string) => void): Promise<string> {
  return new Promise((resolve) => {
    let seen = false;
    io.onSignal((signal) => {
      if (seen) again(signal);
      else {
        seen = true;
        resolve(signal);
      }
    });
  });
}

export function line(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}
