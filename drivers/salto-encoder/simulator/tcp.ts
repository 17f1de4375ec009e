import { startTcpSimulator, type TcpSimulatorServer } from '../../simulator-kit/tcp.js';
import type { EncoderSimulator } from './encoder.js';

/**
 * A lock server on TCP for the simulator: every accepted connection is a session of `simulator`
 * (a real lock server takes one request per connection; so does our driver over TCP). A `reboot`
 * request drops every connection and keeps the port closed for the simulator's `rebootMs`.
 */
export type EncoderTcpServer = TcpSimulatorServer;

export async function startEncoderTcpServer(
  simulator: EncoderSimulator,
  options: { host?: string; port?: number } = {},
): Promise<EncoderTcpServer> {
  const server = await startTcpSimulator({
    ...options,
    clock: simulator.clock,
    onConnection: (connection) => {
      simulator.attach(connection);
    },
  });
  simulator.onReboot = (awayMs) => server.reboot(awayMs);
  return server;
}
