/**
 * The sockets room's front: where the status server listens — the page's TCP port, taken from
 * systemd or bound and tried again while another program holds it (`listenForPage`); the staff
 * socket for the command line, with the one rule for its path and the kernel's word on each
 * peer; and the sockets systemd passes (`passedSockets`).
 */

export { listenForPage, type PageListener } from './page-listener.js';
export { type PassedSockets, passedSockets } from './passed-sockets.js';
export type { PeerCredentials } from './peer-credentials.js';
export {
  accountId,
  prepareStaffDirectory,
  type StaffSocket,
  type StaffSocketOptions,
  staffSocketPath,
  startStaffSocket,
  untrustedDirectory,
} from './staff-socket.js';
