/**
 * A task that never runs twice at once: `run()` while it runs does not start a second run but
 * asks for one more pass after the current one (however many calls came meanwhile), and resolves
 * when that pass is done. No pass starts once `stopped()` is true. `task` must not reject.
 */
export class Coalesced {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly stopped: () => boolean,
  ) {}

  run(): Promise<void> {
    if (this.stopped()) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const passes = async () => {
      do {
        this.again = false;
        await this.task();
      } while (this.again && !this.stopped());
    };
    this.running = passes().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The pass in progress, if any (for shutdown to wait on). */
  get current(): Promise<void> | undefined {
    return this.running;
  }
}
