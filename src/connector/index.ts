/**
 * The connector's public surface: the contracts (`api`, `socket-api`, `wire`, `model`) and their
 * implementations (the HTTP client, its rate budget, the WebSocket listener).
 */

export * from '../backoff.js';
export * from './api.js';
export type { RateBudgetStore, SavedRateBlock, SavedRateBudget } from './budget-store.js';
export * from './client.js';
export { codeForStatus, parseRetryAfter } from './http-errors.js';
export type { FetchLike, HttpAnswer, HttpInit } from './http-transport.js';
export * from './model.js';
export * from './rate-budget.js';
export * from './socket-api.js';
export * from './websocket.js';
export * from './wire.js';
