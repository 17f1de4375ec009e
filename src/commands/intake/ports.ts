import type { NormalizedItem, PlatformCommand } from '../../connector/model.js';
import type { CommandState } from '../../connector/wire.js';

/**
 * What the intake needs of the stages after it, as named ports: the engine hands it objects that
 * implement them (`Ownership` in `run/` is the sink, `OutboxDelivery` in `outbox/` the observer),
 * so discovery knows nothing of what becomes of what it found.
 */

/**
 * Where discovery hands what it found: step 1 ends here and step 2 ("is it ours?") begins.
 * Implemented by `Ownership` (`run/ownership.ts`), which filters and deduplicates.
 */
export interface IntakeSink {
  /** Takes discovered items; returns the ids it accepted as new commands of ours. */
  ingest(items: readonly NormalizedItem[], via: string): readonly string[];
  /** A state hint for a command; returns true when the command is known. */
  platformSays(commandId: string, state: CommandState): boolean;
  /**
   * A known command changed on the platform in a way the event does not spell out (no state, or
   * Processing before we started it): what was seen of it must be read again before it starts.
   */
  platformMoved?(commandId: string): void;
  /**
   * A complete listing of the active commands of one source, requested at `since`: the ids not in
   * `present` are no longer Pending or Received there.
   */
  listedActive?(source: PlatformCommand['source'], present: ReadonlySet<string>, since: number): void;
  isKnown(commandId: string): boolean;
  /**
   * Known commands a listing showed in an active state, recognised from `Id` and `State` and not
   * parsed (so not handed to `ingest`): what was seen of them still holds as of `at`.
   */
  stillActive?(ids: Iterable<string>, at: number): void;
  /**
   * A complete listing at `at` of every change to `source`'s commands since `since` showed none
   * but `changed` (the fiscal poll's window): the commands seen since `since` are as they were.
   */
  unchangedSince?(
    source: PlatformCommand['source'],
    since: number,
    at: number,
    changed: ReadonlySet<string>,
  ): void;
}

/**
 * Who wants to hear whether the platform answers discovery's requests: the outbox delivery
 * (`OutboxDelivery` in `outbox/delivery.ts`), which ends an outage pause as soon as the platform
 * is back instead of waiting out its backoff.
 */
export interface PlatformObserver {
  /** A discovery request the platform answered. */
  platformAnswered(): void;
  /** A discovery request failed with a retryable platform error (an outage). */
  platformFailed(): void;
}
