/**
 * The agent's front: `createAgent` builds the running daemon — the platform link, the journal,
 * the drivers, the command engine and the status page — for the command line's `run`.
 */

export { type Agent, type AgentDeps, createAgent } from './agent.js';
