import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { TcpListener } from '../../src/transport/tcp-listener.js';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import {
  asAccount,
  canRunAsAnotherAccount,
  type Desk,
  NOBODY,
  openDesk,
  postAsStaff,
  staffCookie,
} from './desk.js';

/**
 * Issue 40, finding M5: each refused FIAS connection and each failed login logged a line (731 and
 * 1836 a second measured), and journald's rate limit then dropped the unit's lines, `audit=`
 * lines included. Now such warnings go through `Logger.repeated` — the first line at once, then
 * one a minute per source with the count — and audit lines also go to a file of their own.
 */

const ATTEMPTS = 300;

let desk: Desk | undefined;
let listener: TcpListener | undefined;
afterEach(async () => {
  await desk?.close();
  await listener?.close();
  desk = undefined;
  listener = undefined;
});

function refusedConnection(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
}

describe('a flood of refusals', () => {
  it(`${ATTEMPTS} connections from an address the lock server port does not allow: one line, then one a minute with the count`, async () => {
    const clock = new ManualClock();
    const log = createMemoryLogger({ clock });
    const refused: string[] = [];
    listener = new TcpListener({ host: '127.0.0.1', port: 0, allow: ['192.0.2.10'], log });
    listener.onRefused((address) => refused.push(address));
    await listener.listen();
    for (let i = 0; i < ATTEMPTS; i++) await refusedConnection(listener.port as number);
    expect(refused).toHaveLength(ATTEMPTS);
    const lines = () => log.lines.filter((line) => line.includes('refused a connection'));
    expect(lines()).toHaveLength(1);
    await clock.advance(60_000);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatch(new RegExp(`from=127\\.0\\.0\\.1 .*repeated=${ATTEMPTS - 1} since=`));
  });

  it.skipIf(!canRunAsAnotherAccount)(
    `${ATTEMPTS} failed logins from another account: one line, and the desk's audit line stays in the audit file`,
    async () => {
      const auditFile = join(mkdtempSync(join(tmpdir(), 'fd-flood-')), 'audit.log');
      desk = await openDesk({ auditFile });
      const maria = await staffCookie(desk);
      const guesses = Array.from({ length: ATTEMPTS }, (_, i) => ({
        path: `/login?token=${String(i).padStart(43, 'A')}`,
      }));
      const flood = asAccount(NOBODY, desk.server.url, guesses);
      const x = await postAsStaff(desk, `/actions/${FISCAL_ID}/x-report`, { cookie: maria });
      expect(x.status).toBe(200);
      expect((await flood).every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
      expect(desk.log.lines.filter((line) => line.includes('login refused'))).toHaveLength(1);
      expect(readFileSync(auditFile, 'utf8')).toMatch(
        /audit=device-action who=page .*action=x-report .*result=done/,
      );
    },
  );
});
