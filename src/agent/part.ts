/**
 * One part of the running agent (`agent.ts` lists them). The agent starts its parts one after
 * another, in the order of its list — each may use what the parts before it started — and stops
 * them in the reverse order, so that no part is stopped while one started after it still uses it.
 */
export interface AgentPart {
  /** For the log, when a part fails to stop. */
  readonly name: string;
  /**
   * Starts the part. Rejects when it cannot; the agent then stops every part it began to start,
   * this one included.
   */
  start(): Promise<void>;
  /**
   * Stops what `start` started, and is safe when `start` failed half-way or never ran. Never
   * rejects. `deadlineMs` is what a graceful stop allows running jobs (0 after a failed start).
   */
  stop(deadlineMs: number): Promise<void>;
}
