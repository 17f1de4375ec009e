/**
 * The events room's front: the page's live updates (`GET /events`, server-sent events) — every
 * agent event as it happens, and the page's sections rendered again after events and on a timer.
 */

export { createLiveFeed, type LiveFeed } from './live-feed.js';
