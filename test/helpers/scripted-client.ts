import { spawn } from 'node:child_process';

/**
 * HTTP requests sent in order by another process — of another Unix account (`setpriv`), or in
 * another network namespace (`ip netns exec`) — as a hostile program there would send them: any
 * header it likes, from the local address it chooses. `{csrf}` in a header or the body stands for
 * the last CSRF token a `readCsrf` answer gave.
 */

export interface ScriptedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Read `csrfToken` from this answer's JSON for the requests that follow. */
  readCsrf?: boolean;
  /** The local address to send from. */
  localAddress?: string;
  /** For https: the certificate (PEM) to trust. */
  ca?: string;
}

export interface ScriptedAnswer {
  /** The HTTP status; 0 when the request failed (the error code is the text). */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const CLIENT = `
const requests = JSON.parse(process.argv[1]);
(async () => {
  const out = [];
  let csrf = '';
  for (const r of requests) {
    const url = new URL(r.url);
    const lib = require(url.protocol === 'https:' ? 'node:https' : 'node:http');
    const fill = (text) => text.split('{csrf}').join(csrf);
    const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, fill(v)]));
    const body = r.body === undefined ? undefined : fill(r.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const answer = await new Promise((resolve) => {
      const req = lib.request({ host: url.hostname, port: url.port, path: url.pathname + url.search,
        method: r.method ?? 'GET', headers, ...(r.localAddress ? { localAddress: r.localAddress } : {}),
        ...(r.ca ? { ca: r.ca } : {}) }, (res) => {
        let text = ''; res.setEncoding('utf8'); res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      });
      req.on('error', (e) => resolve({ status: 0, headers: {}, text: e.code ?? e.message }));
      req.end(body);
    });
    if (r.readCsrf) { try { csrf = JSON.parse(answer.text).csrfToken ?? ''; } catch {} }
    out.push(answer);
  }
  process.stdout.write(JSON.stringify(out));
})();`;

/** Runs `requests` in a node started by `launcher` (its argv before node); resolves to the answers. */
export function sendScripted(
  launcher: readonly string[],
  requests: readonly ScriptedRequest[],
): Promise<ScriptedAnswer[]> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = launcher;
    const child = spawn(
      command as string,
      [...args, process.execPath, '-e', CLIENT, JSON.stringify(requests)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as ScriptedAnswer[]);
      } catch (error) {
        reject(error);
      }
    });
  });
}
