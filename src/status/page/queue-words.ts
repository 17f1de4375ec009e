import { type Message, readMessage } from '../../messages/message.js';
import type { AgentSnapshot, DeliverNowResult } from '../../status-model.js';
import { when } from './format.js';
import { queueMessages } from './messages-queue.js';

/**
 * What waits and why, in words, from one snapshot: the page's Waiting section and `doctor` both
 * say these lines, so staff and IT read the same counts and the same reasons.
 *
 * - a device's queue: its commands waiting behind the running one, or behind the device's own
 *   problem (not connected, out of paper: the driver's words);
 * - the outbox: results and updates not yet delivered, and why they wait — the platform's rate
 *   limit (until when), the platform unreachable or refusing the tokens (since when, the next try).
 */

export interface WaitingLine {
  /** `device` (with `deviceId`) or `outbox`. */
  subject: 'device' | 'outbox';
  deviceId?: string;
  count: number;
  what: Message;
  /** Why it waits, when something holds it; absent while it simply moves. */
  why?: Message;
}

export function waitingLines(snapshot: AgentSnapshot): WaitingLine[] {
  const lines: WaitingLine[] = [];
  for (const device of snapshot.devices) {
    if (device.queued <= 0) continue;
    const line: WaitingLine = {
      subject: 'device',
      deviceId: device.id,
      count: device.queued,
      what: queueMessages.deviceQueued({ device: device.name, count: device.queued }),
    };
    const problem = !device.status.connected ? device.status.summary : device.status.warnings[0];
    if (problem) line.why = readMessage(problem);
    else if (device.running) line.why = queueMessages.behindRunning({ id: device.running.commandId });
    lines.push(line);
  }
  const pending = snapshot.outbox.pending;
  if (pending > 0) {
    const line: WaitingLine = {
      subject: 'outbox',
      count: pending,
      what: queueMessages.outboxWaiting({ count: pending }),
    };
    const why = outboxWhy(snapshot);
    if (why) line.why = why;
    lines.push(line);
  }
  return lines;
}

/** Epoch ms until which the platform's rate limit holds every request, if it does now. */
export function rateLimitedUntil(snapshot: AgentSnapshot): number | undefined {
  const { platform, now } = snapshot;
  const until = Math.max(platform.rateLimited?.blockedUntil ?? 0, platform.budget.blockedUntil ?? 0);
  return until > now ? until : undefined;
}

function outboxWhy(snapshot: AgentSnapshot): Message | undefined {
  const { now } = snapshot;
  const limited = rateLimitedUntil(snapshot);
  if (limited !== undefined) return queueMessages.rateLimitedUntil({ until: when(limited, now) });
  const trouble = snapshot.outbox.trouble;
  if (!trouble) return undefined;
  const values = { since: when(trouble.since, now), code: trouble.code };
  const refused = trouble.reason === 'refused';
  if (trouble.until !== undefined && trouble.until > now) {
    const next = { ...values, until: when(trouble.until, now) };
    return refused ? queueMessages.refusedSince(next) : queueMessages.unreachableSince(next);
  }
  return refused ? queueMessages.refusedSinceTrying(values) : queueMessages.unreachableSinceTrying(values);
}

/** The answer to "try delivery now", in words. */
export function deliverNowWords(result: DeliverNowResult, now: number): Message {
  if (result.pending === 0) return queueMessages.deliverNowNothing();
  if (result.rateLimitedUntil !== undefined && result.rateLimitedUntil > now)
    return queueMessages.deliverNowRateLimited({
      until: when(result.rateLimitedUntil, now),
      count: result.pending,
    });
  return result.lifted
    ? queueMessages.deliverNowStarted({ count: result.pending })
    : queueMessages.deliverNowAlready({ count: result.pending });
}
