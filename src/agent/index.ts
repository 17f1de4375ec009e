/**
 * The agent's front: `createAgent` builds the running daemon — the platform link, the journal,
 * the drivers, the command engine and the status page — for the command line's `run`. Building
 * the configured drivers alone has its own front, `device-drivers/index.ts`.
 */

export { type Agent, type AgentDeps, createAgent } from './agent.js';
