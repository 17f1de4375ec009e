/**
 * The agent's device-drivers room: one driver per configured device, built from the registry the
 * composition root hands in, and demo mode's device simulators. The agent's `Devices` part uses
 * it, and so does `doctor`, which builds a device to check it without loading the rest of the
 * agent.
 */

export { createDevices, type DriverWiring, startDeviceSimulators } from './build.js';
