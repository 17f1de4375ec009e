import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';

/**
 * The audit trail on disk: every `audit=` line the agent logs is also appended here (log.ts,
 * `LoggerOptions.auditFile`), one line each, written before the call returns. journald drops a
 * service's lines beyond its rate limit and rotates its files by size, so a flood of other lines
 * could push audit lines out of the journal; nothing else writes to this file, and what writes
 * audit lines is itself bounded (actions are rate-limited per caller, refusals go through
 * `Logger.repeated`: one line per minute per source).
 *
 * The file is the service's own (mode 0600, in its state directory, /var/lib/frontdesk-agent
 * under systemd: StateDirectoryMode=0700). At `maxBytes` it is renamed to `<path>.1` (replacing
 * the previous one) and a new file begins, so the trail keeps between one and two files' worth.
 */

/** Default size of one audit file: about 30,000 lines. */
export const AUDIT_FILE_MAX_BYTES = 8 * 1024 * 1024;

export class AuditFile {
  private fd: number | undefined;
  private size = 0;
  /** Why the last write failed, until one succeeds again. */
  private failing: string | undefined;

  constructor(
    readonly path: string,
    private readonly maxBytes = AUDIT_FILE_MAX_BYTES,
  ) {}

  /**
   * Appends one line (a newline is added). Never throws. Returns why it could not write when this
   * is the first failure since the last success (the caller says so once in the log), undefined
   * otherwise.
   */
  append(line: string): string | undefined {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    try {
      if (this.fd !== undefined && this.size + bytes.length > this.maxBytes) this.rotate();
      const fd = this.open();
      writeSync(fd, bytes);
      this.size += bytes.length;
      this.failing = undefined;
      return undefined;
    } catch (error) {
      this.closeQuietly();
      const reason = (error as Error).message;
      const first = this.failing === undefined;
      this.failing = reason;
      return first ? reason : undefined;
    }
  }

  close(): void {
    this.closeQuietly();
  }

  private open(): number {
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'a', 0o600);
      this.size = fstatSync(this.fd).size;
    }
    return this.fd;
  }

  private rotate(): void {
    this.closeQuietly();
    renameSync(this.path, `${this.path}.1`);
  }

  private closeQuietly(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already gone
    }
    this.fd = undefined;
  }
}
