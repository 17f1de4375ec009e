/**
 * The agent's front: `createAgent` builds the running daemon — the platform link, the journal,
 * the drivers, the command engine and the status page — for the command line's `run`; and the
 * building of the configured drivers and their device simulators, which `doctor` uses too.
 */

export { type Agent, type AgentDeps, createAgent } from './agent.js';
export { createDevices, startDeviceSimulators } from './drivers.js';
