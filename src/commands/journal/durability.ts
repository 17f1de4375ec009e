import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { AgentError } from '../../errors.js';

/**
 * Group commit for the journal's SQLite file.
 *
 * The connection runs WAL with `synchronous = NORMAL`: a commit is atomic and ordered, and once it
 * returns it is in the WAL file (the kernel's page cache), so a killed or crashed process loses
 * nothing. A power cut or a kernel crash can lose the newest commits, never reorder or tear them:
 * SQLite's recovery keeps a prefix of the commits. `flush()` closes that gap: it makes every commit
 * made before the call survive a power cut, with one `fdatasync` of the WAL file run in libuv's
 * thread pool, so the event loop (every device lane, the status page) goes on meanwhile. A flush
 * whose commits a running sync covers (they were made before it began) shares that sync. One whose
 * commits are newer has two ways on:
 * - by default (a device waits: a driver's checkpoint, its store before a Z report) it starts its
 *   own sync at once, up to `MAX_CONCURRENT_SYNCS`, instead of queueing behind the running one: a
 *   receipt's checkpoint then costs one sync, not the rest of another plus its own (issue 26:
 *   10.5 → 8.3 ms median before the POST, measured in a 300-receipt burst);
 * - `{ grouped: true }` (nothing waits but a report: the outbox's deliveries) it starts a sync
 *   only when none runs, and otherwise waits for the running ones and shares the next: classic
 *   group commit. A burst's deliveries then take one sync slot, not all of them, and never hold
 *   up a checkpoint's sync (issue 26, a 300-receipt burst: with drivers' final checkpoints no
 *   longer synced, the device's flush went from 7.7 to 4.7 ms median, p90 17.0 → 10.1 ms;
 *   before, 55 % of them had found both slots taken).
 * Any fdatasync that returns covers every write made before it was called; still, callers are
 * told in the order the syncs started (one that ends first waits for the earlier), so the outbox's
 * deliveries reach the platform in the order they were committed.
 *
 * Why an fdatasync of the WAL is enough: in WAL mode a commit is frames appended to `<path>-wal`;
 * syncing that file's data is what SQLite's FULL mode does after each commit. SQLite syncs the WAL
 * itself before it copies frames into the database (a checkpoint) and syncs the database after,
 * and it only rewinds the WAL (the same file) once a checkpoint has copied every frame, so what a
 * flush covered stays on disk in one file or the other. The same holds for the truncating
 * checkpoints that empty the WAL (`Journal.truncateWal`, every minute, so deleted guest data
 * leaves the disk) and for `journal_size_limit`: the file is cut only after its frames are in the
 * synced database, and it is cut, not replaced, so the handle synced here stays the WAL's. The
 * directory entry of the WAL file is synced when the journal opens.
 *
 * Who flushes (the durability argument of `src/commands/README.md`): the engine before a driver
 * runs a job (the start is on disk before the device can act), a driver's checkpoint and device
 * store before the side effect they protect, and the outbox delivery before the platform hears of
 * a state. Commits no one has flushed yet (a delivery's bookkeeping, a result not yet reported)
 * are what a power cut can lose; recovery then works from the last flushed state: the
 * checkpoint written before the side effect decides the outcome, and an update is sent again.
 */
/** `fs.fdatasync`'s shape; tests pass one that counts or fails. */
export type DataSync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;

/** How a flush may wait (see the file's comment). */
export interface FlushOptions {
  /**
   * Share the next sync with other such callers rather than start one beside a running sync: for
   * work no device waits on (the outbox's reports). Default false: start at once.
   */
  grouped?: boolean;
}

/** A sync in flight and the changes (`total_changes()`) it covers. */
interface RunningSync {
  covers: number;
  done: Promise<void>;
}

/**
 * Syncs in flight at once: libuv's pool has four threads, shared with every other file operation
 * and name lookup, so the journal leaves one of them free. Grouped flushes take at most one.
 */
const MAX_CONCURRENT_SYNCS = 3;

export class JournalDurability {
  /** Changes (SQLite `total_changes()`) known to be on disk. */
  private synced = 0;
  private readonly running = new Set<RunningSync>();
  /** Settles once the newest sync's callers were told (resolved or rejected). */
  private newestSettled: Promise<void> = Promise.resolve();
  private failure: AgentError | undefined;
  private fd: number | undefined;
  private closed = false;

  /**
   * @param path the database file; `:memory:` has nothing to sync.
   * @param changes SQLite's `total_changes()` of the journal's one connection.
   * @param inTransaction whether a transaction is open on it (a flush there is a bug: what it
   *   would count is not committed yet).
   * @param sync the data sync of the WAL file (`fs.fdatasync`).
   */
  constructor(
    private readonly path: string,
    private readonly changes: () => number,
    private readonly inTransaction: () => boolean,
    private readonly sync: DataSync = fdatasync,
  ) {
    if (path === ':memory:') return;
    this.fd = openSync(`${path}-wal`, 'r');
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    this.synced = changes();
  }

  /**
   * Resolves when every commit made before the call is on disk. Rejects with JOURNAL_ERROR when
   * the journal is closed or the disk refused a sync (after which no flush succeeds: data the
   * kernel could not write may be lost, so nothing may be promised on top of it).
   */
  flush(options: FlushOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(this.error('is closed (flush)'));
    if (this.inTransaction()) {
      return Promise.reject(new AgentError('INTERNAL', 'Journal flush inside a transaction'));
    }
    return this.flushUpTo(this.changes(), options.grouped === true);
  }

  /**
   * Settles once every sync started so far has told its callers (resolved or rejected); never
   * rejects. For code driven by a manual clock (the engine's tests): the sync runs in libuv's pool
   * and takes real time, which no clock step can stand in for.
   */
  syncsSettled(): Promise<void> {
    return this.newestSettled;
  }

  /** Closes the WAL handle once no sync uses it. The database's own close syncs the rest. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    if (this.running.size > 0) {
      void Promise.allSettled([...this.running].map((r) => r.done)).finally(() => closeSync(fd));
    } else closeSync(fd);
  }

  /**
   * Waiting for the newest sync is enough: callers are told in start order, so once it settles
   * every sync running at the call has too, and any sync still running then began after the call
   * and covers `target`.
   */
  private flushUpTo(target: number, grouped: boolean): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (target <= this.synced || this.fd === undefined) return Promise.resolve();
    for (const running of this.running) if (running.covers >= target) return running.done;
    if (this.running.size >= (grouped ? 1 : MAX_CONCURRENT_SYNCS)) {
      const newest = [...this.running].at(-1) as RunningSync;
      return newest.done.then(() => this.flushUpTo(target, grouped));
    }
    const covers = this.changes();
    const fd = this.fd;
    // Callers hear in the order the syncs started: a sync that ends before an earlier one waits
    // for it, so what was committed first is reported on disk first.
    const earlier = this.newestSettled;
    const running: RunningSync = { covers, done: Promise.resolve() };
    running.done = new Promise<void>((resolve, reject) => {
      this.sync(fd, (e) => {
        const settle = () => {
          this.running.delete(running);
          if (e) this.failure ??= this.error('could not be synced to disk', e);
          if (this.failure) {
            reject(this.failure);
            return;
          }
          this.synced = Math.max(this.synced, covers);
          resolve();
        };
        void earlier.then(settle);
      });
    });
    this.newestSettled = running.done.catch(() => undefined);
    this.running.add(running);
    return running.done;
  }

  private error(what: string, cause?: unknown): AgentError {
    return new AgentError('JOURNAL_ERROR', `Journal ${this.path} ${what}`, cause ? { cause } : {});
  }
}
