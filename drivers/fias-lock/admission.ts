import { Backoff } from '../../src/backoff.js';
import type { Clock } from '../../src/clock.js';
import type { Logger } from '../../src/log.js';
import type { AcceptedPeer } from '../../src/transport/tcp-listener.js';
import type { FiasLink } from './link.js';

/**
 * Who gets the FIAS link when a connection arrives from the lock server's address (issue 40 M1).
 * Whoever connects from that address *is* the lock server to the agent — it receives the guests'
 * names and its OK marks keys cut — so an established link is kept:
 *
 * - no link: the connection becomes the link;
 * - a link (starting or Alive): the newcomer waits until the link is Alive with no key request
 *   outstanding, then the link is asked whether it still answers (`FiasLink.provesAlive`). It
 *   does: the newcomer is refused. It does not, or it ended meanwhile: the newcomer replaces it.
 *   A link that never finishes starting ends at `linkTimeoutMs`, and the newcomer takes over;
 * - one newcomer waits at a time, and a contest starts at most once a `CONTEST_MIN_MS` doubling
 *   to `CONTEST_MAX_MS` (the one backoff, `src/backoff.ts`), since each asks the lock server an
 *   alive check (Oracle asks for at most one every 5 minutes, IFC8 FIAS specification §8 p.91);
 *   the others are refused at once.
 *
 * Oracle's own interface drops the older connection for the newer one at once ("only one client
 * per port", §7 p.90), so that a vendor can re-establish a broken link. The agent keeps that
 * recovery — a lock server that restarted gets its new link once the old one stays silent —
 * without letting another program on that address take a live link or kill a key request in
 * flight. Refusals and replacements are counted (status facts) and logged once a minute at most.
 */

/** The first pause between two contests for the link, doubling while they keep coming. */
export const CONTEST_MIN_MS = 1_000;
/** The longest pause; a quiet spell this long starts again from `CONTEST_MIN_MS`. */
export const CONTEST_MAX_MS = 60_000;

export interface AdmissionOptions {
  clock: Clock;
  log: Logger;
  /** How long the link in force has to answer its alive check. */
  aliveTimeoutMs: number;
  /** The endpoint's lifetime: a contest under way ends with it. */
  lifetime: AbortSignal;
  /** The link in force, if any. */
  current(): FiasLink | undefined;
  /** Makes `peer`'s connection the link. */
  adopt(peer: AcceptedPeer): void;
}

export class LinkAdmission {
  /** The connection waiting to learn whether the link in force still answers. */
  private contender: AcceptedPeer | undefined;
  private readonly contests = new Backoff({ minMs: CONTEST_MIN_MS, maxMs: CONTEST_MAX_MS });
  private nextContestAt = Number.NEGATIVE_INFINITY;
  private lastContestAt: number | undefined;
  private refusedCount = 0;
  private replacedCount = 0;

  constructor(private readonly options: AdmissionOptions) {}

  /** Connections from the lock server's address refused while its link was kept. */
  get refusals(): number {
    return this.refusedCount;
  }

  /** Links dropped for a newer connection because they no longer answered. */
  get replacements(): number {
    return this.replacedCount;
  }

  /** A connection from the lock server's address. */
  accept(peer: AcceptedPeer): void {
    const older = this.options.current();
    if (!older) {
      this.options.adopt(peer);
      return;
    }
    if (this.contender) {
      this.refuse(peer, 'another connection from that address is already waiting');
      return;
    }
    const now = this.options.clock.now();
    if (now < this.nextContestAt) {
      this.refuse(peer, 'too soon after the last one');
      return;
    }
    if (this.lastContestAt !== undefined && now - this.lastContestAt >= CONTEST_MAX_MS) this.contests.reset();
    this.lastContestAt = now;
    this.nextContestAt = now + this.contests.next();
    void this.contest(older, peer);
  }

  private async contest(older: FiasLink, peer: AcceptedPeer): Promise<void> {
    this.contender = peer;
    const offClose = peer.transport.onClose(() => {
      if (this.contender === peer) this.contender = undefined;
    });
    let answers: boolean;
    try {
      answers = await older.provesAlive(this.options.aliveTimeoutMs, this.options.lifetime);
    } finally {
      offClose();
    }
    if (this.contender !== peer) return;
    this.contender = undefined;
    const current = this.options.current();
    if (this.options.lifetime.aborted || (current !== older && current !== undefined)) {
      this.refuse(peer, 'another link started meanwhile');
    } else if (answers && current === older) {
      this.refuse(peer, 'the link in force answered its alive check');
    } else {
      if (current === older) {
        this.replacedCount++;
        // A peer can make this repeat as fast as it likes: one line a minute (Logger.repeated).
        this.options.log.repeated(
          'FIAS: the link in force did not answer its alive check; a newer connection from the lock server’s address replaces it',
          `fias-replaced:${peer.address}`,
          { peer: peer.address },
        );
        older.drop('it did not answer its alive check when another connection came from its address');
      }
      this.options.adopt(peer);
    }
  }

  private refuse(peer: AcceptedPeer, why: string): void {
    this.refusedCount++;
    this.options.log.repeated(
      'FIAS: refused another connection from the lock server’s address; the link in force is kept',
      `fias-refused:${peer.address}`,
      { peer: peer.address, why },
    );
    void peer.transport.close().catch(() => undefined);
  }
}
