import type { Clock } from '../../../src/clock.js';
import type {
  DeviceStatus,
  Driver,
  ExecuteContext,
  Job,
  JobResult,
  Reconciliation,
} from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { textMessage } from '../../../src/messages/message.js';

/**
 * A driver whose behaviour each test scripts: every `execute` takes the next script from a queue
 * (or the default), every `reconcile` the next reconciliation. It records what it was asked to do
 * and checks the core's promise of one job at a time.
 */

export type ExecuteScript = (job: Job, ctx: ExecuteContext) => Promise<JobResult>;

export class ScriptedDriver implements Driver {
  readonly executed: Job[] = [];
  readonly reconciled: Job[] = [];
  opens = 0;
  concurrent = 0;
  maxConcurrent = 0;
  private readonly scripts: ExecuteScript[] = [];
  private readonly openFailures: AgentError[] = [];
  private readonly reconciliations: Array<Reconciliation | (() => Promise<Reconciliation>)> = [];

  constructor(
    private readonly fallback: ExecuteScript = async (job) => ({
      notes: textMessage(`done ${job.commandId}`),
    }),
  ) {}

  /** Queues the scripts of the next executions. */
  next(...scripts: ExecuteScript[]): this {
    this.scripts.push(...scripts);
    return this;
  }

  /** Queues failures of the next `open()` calls (a device away when the agent starts). */
  failNextOpens(...errors: AgentError[]): this {
    this.openFailures.push(...errors);
    return this;
  }

  nextReconcile(...outcomes: Array<Reconciliation | (() => Promise<Reconciliation>)>): this {
    this.reconciliations.push(...outcomes);
    return this;
  }

  async open(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new AgentError('ABORTED', 'aborted before open');
    this.opens++;
    const failure = this.openFailures.shift();
    if (failure) throw failure;
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    this.executed.push(structuredClone(job));
    this.concurrent++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
    try {
      return await (this.scripts.shift() ?? this.fallback)(job, ctx);
    } finally {
      this.concurrent--;
    }
  }

  async reconcile(job: Job): Promise<Reconciliation> {
    this.reconciled.push(structuredClone(job));
    const next = this.reconciliations.shift();
    if (!next) throw new Error(`unexpected reconcile of ${job.commandId}`);
    return typeof next === 'function' ? next() : next;
  }

  status(): DeviceStatus {
    return { connected: true, summary: textMessage('ready'), warnings: [], facts: {} };
  }

  async close(): Promise<void> {}
}

/** A promise the test resolves by hand. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves with `promise`, or rejects ABORTED as soon as `signal` fires. */
export function unlessAborted<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AgentError('ABORTED', 'stopped at a safe point'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A job that takes `ms` on the clock (aborting at the signal) and then succeeds. */
export function takes(clock: Clock, ms: number, notes = 'done'): ExecuteScript {
  return async (_job, ctx) => {
    await clock.sleep(ms, ctx.signal).catch(() => {
      throw new AgentError('ABORTED', 'stopped at a safe point');
    });
    return { notes: textMessage(notes) };
  };
}

/** A job that fails with `code` before touching the device. */
export function failsWith(code: AgentError['code'], message = `${code} from the device`): ExecuteScript {
  return async () => {
    throw new AgentError(code, message);
  };
}
