/**
 * The FIAS lock-server simulator's public surface: a lock server that connects to the agent's
 * FIAS port, describes its records, answers key requests (or refuses, drops the link, answers
 * late or never) and records every card it writes (`lock-server.ts`), and its reading of a key
 * request (`keys.ts`). It shares only the record codec and the date formats with the driver.
 *
 * Production code reaches it only through `simulate()` in `../index.ts`, by a dynamic import, so
 * an agent driving a real lock server never loads it.
 */
export type { EncodedKey, KeyType } from './keys.js';
export { readKeyRequest } from './keys.js';
export type { FiasLockServerOptions, LockBehaviour, Opening, ReceivedKeyRequest } from './lock-server.js';
export { DEFAULT_LINK_RECORDS, FiasLockServerSimulator } from './lock-server.js';
