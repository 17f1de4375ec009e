/**
 * The key-card encoder simulator's public surface: the device end of the PMS protocol over any
 * byte Transport (`encoder.ts`: a memory endpoint, one side of a socat pseudo-terminal pair, a TCP
 * connection) and a lock server on TCP around it (`tcp.ts`). It shares the frame codec (STX/ETX,
 * LRC) and the card request's field layout with the driver, never the driver's decisions.
 *
 * Production code reaches it only through `simulate()` in `../index.ts`, by a dynamic import, so
 * an agent driving a real encoder never loads it.
 */
export type { EncodedCard, EncoderBehaviour, EncoderSimulatorOptions, ReceivedRequest } from './encoder.js';
export { EncoderSimulator } from './encoder.js';
export type { EncoderTcpServer } from './tcp.js';
export { startEncoderTcpServer } from './tcp.js';
