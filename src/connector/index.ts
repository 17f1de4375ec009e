/**
 * The connector's public surface: the contracts (`api`, `socket-api`, `wire`, `model`) and their
 * implementations (the HTTP client, its rate budget, the WebSocket listener).
 */
export * from './api.js';
export * from './backoff.js';
export * from './client.js';
export type { FetchLike } from './exchange.js';
export { codeForStatus, parseRetryAfter } from './http-errors.js';
export * from './model.js';
export * from './rate-budget.js';
export * from './socket-api.js';
export * from './websocket.js';
export * from './wire.js';
