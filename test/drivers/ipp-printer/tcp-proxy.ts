import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { Listeners } from '../../../src/listeners.js';

/**
 * A loopback TCP proxy in front of a printer, for the faults a real printer cannot be told to
 * make: going away (connections refused) and coming back on the same port, and holding the answer
 * of a Print-Job (recognised by the IPP operation id 0x0002 after the HTTP headers) while the
 * request itself has gone through — the window in which an agent can be killed "between Print-Job
 * and its answer".
 */
export interface TcpProxy {
  readonly port: number;
  setDown(down: boolean): Promise<void>;
  /** While on, Print-Job answers are held back (and dropped with their connection on `drop`). */
  holdPrintJobAnswers(on: boolean): void;
  /** Resolves when a Print-Job answer is being held. */
  answerHeld(): Promise<void>;
  /** Cuts the connections whose answers are held. */
  dropHeld(): void;
  /** Calls `listener` when a Print-Job request is recognised, before it reaches the printer. */
  onPrintJob(listener: () => void): () => void;
  close(): Promise<void>;
}

export async function startTcpProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const held = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const printJobListeners = new Listeners<[]>();
  let hold = false;
  let port = 0;
  let server: Server | undefined;

  const onConnection = (client: Socket) => {
    const upstream = connect(upstreamPort, upstreamHost);
    sockets.add(client);
    sockets.add(upstream);
    let head = Buffer.alloc(0);
    let isPrintJob: boolean | undefined;
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      held.delete(client);
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('data', (chunk: Buffer) => {
      if (isPrintJob === undefined) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0 && head.length >= end + 8) {
          isPrintJob = head.readUInt16BE(end + 6) === 0x0002;
          if (isPrintJob) printJobListeners.emit();
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (hold && isPrintJob) {
        if (!held.has(client)) {
          held.add(client);
          for (const w of waiters.splice(0)) w();
        }
        return;
      }
      client.write(chunk);
    });
  };

  const listen = async () => {
    const s = createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const unlisten = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    setDown: async (down) => {
      if (down) await unlisten();
      else if (!server) await listen();
    },
    holdPrintJobAnswers: (on) => {
      hold = on;
    },
    answerHeld: () =>
      held.size > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    dropHeld: () => {
      for (const c of held) c.destroy();
      held.clear();
    },
    onPrintJob: (listener) => printJobListeners.add(listener),
    close: unlisten,
  };
}
