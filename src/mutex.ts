/**
 * The agent's one serial turn: work that must not overlap — the exchanges with one Epson
 * printer (fpmate answers one request at a time), the encoder's TCP connection shared by a
 * background open and a recovery, the sd_notify messages that must reach systemd in order —
 * waits its turn here.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Runs `task` once every task handed in before it has settled, and resolves or rejects as
   * `task` does. Turns are taken in call order; a task that throws or rejects never blocks the
   * ones after it. `task` is not started within this call, even when the turn is free.
   */
  run<T>(task: () => T | PromiseLike<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
