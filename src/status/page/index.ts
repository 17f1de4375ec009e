/**
 * The page room's front: how the status page is drawn — the page and its live sections, the
 * waiting lines `doctor` says too, the formatting of facts and times, the HTML builder and the
 * head every page starts with (the login page's too), and the page's sentences. It renders a `StatusSource`'s
 * snapshot and knows nothing of who asks (the callers room) or what staff do (the actions room).
 */

export { formatFact, labelFor } from './format.js';
export { html } from './html.js';
export { pageMessages } from './messages.js';
export { queueMessages } from './messages-queue.js';
export { pageHead, renderPage, renderSections, SECTION_IDS, type SectionId } from './page.js';
export { deliverNowWords, waitingLines } from './queue-words.js';
export type { ActionNotice } from './render-actions.js';
export { type AttentionItem, attentionItems, describeRateLimit } from './render-overview.js';
