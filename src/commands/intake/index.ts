/**
 * Stage 1 of a command's life, intake: how commands for our devices are noticed — the
 * WebSocket's announcements, the catch-up polls, the fiscal poll, the fiscal reads by id and the
 * deep catch-up — and the commands the agent creates itself (`CreatedCommands`: staff's Cut
 * keys), handed, as they are, to the sink (`IntakeSink`, step 2). Nothing here decides what is
 * ours. The stage's public surface: the engine and later stages import it only
 * from here.
 */

export { CreatedCommands } from './created.js';
export {
  type DiscoveryActivity,
  enterpriseFilter,
  type IntakeOptions,
  type PollOptions,
} from './discovery-requests.js';
export { Intake } from './intake.js';
export type { IntakeSink, PlatformObserver } from './ports.js';
