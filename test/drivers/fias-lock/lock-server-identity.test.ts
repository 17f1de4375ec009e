import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  encodeRecord,
  type FiasRecord,
  fieldOf,
  RecordDecoder,
  record,
} from '../../../drivers/fias-lock/records.js';
import { ManualClock } from '../../../src/clock.js';
import { english } from '../../../src/messages/render.js';
import { eventually } from '../../helpers/eventually.js';
import { type FiasRig, fiasRig, keyJob, live, run } from './rig.js';

/**
 * Issue 40 M1, "anyone local becomes the lock server", played as its PoC did against the agent
 * at c51eec2 (both tests failed there): `lockServer` was loopback by default and a newer allowed
 * connection replaced the link at once (`endpoint.ts:240-250`), so
 *
 * - an impostor connecting from the lock server's address (on loopback: any program of any local
 *   account) received the key requests with the guests' names, answered OK, and the keys were
 *   reported cut with no card written;
 * - connecting again and again killed the key request in flight.
 *
 * Now an established link that answers its alive check is kept; the newcomer is refused, counted
 * and logged once a minute at most (`Logger.repeated`, `drivers/fias-lock/admission.ts`).
 */

let rig: FiasRig | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await rig?.dispose();
  rig = undefined;
});

/** A program that connects to the agent's FIAS port as a lock server would, and says OK to every key. */
interface Impostor {
  /** Key requests it received, with what they told (the guest's name). */
  requests: FiasRecord[];
  /** Whether the agent ever spoke to it (LS: it was taken for the lock server). */
  linked: boolean;
  closed: Promise<void>;
}

async function impostor(port: number): Promise<Impostor> {
  const socket = connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  socket.on('error', () => undefined);
  const state: Impostor = {
    requests: [],
    linked: false,
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
  };
  const send = (r: FiasRecord) => socket.write(encodeRecord(r));
  const decoder = new RecordDecoder();
  socket.on('data', (chunk: Buffer) => {
    for (const e of decoder.push(chunk)) {
      if (e.kind !== 'record') continue;
      if (e.record.type === 'LS') {
        state.linked = true;
        send(record('LD', { 'V#': '6.6', IF: 'DL' }));
        send(record('LA'));
      } else if (e.record.type === 'KR') {
        state.requests.push(e.record);
        const ws = fieldOf(e.record, 'WS') ?? '';
        send(record('KA', { AS: 'OK', CT: 'Key made', KC: fieldOf(e.record, 'KC') ?? '', WS: ws }));
      }
    }
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return state;
}

/** Resolves once the agent has either refused `who` (closed) or taken it for the lock server (LS). */
function decided(who: Impostor): Promise<unknown> {
  return Promise.race([who.closed, eventually('the impostor linked', () => who.linked)]);
}

describe('fias-lock: the lock server is who the configuration says (issue 40 M1)', () => {
  it('an impostor from the lock server’s address gets no key request and no guest name while the lock server’s link answers', async () => {
    // The lock server would take a minute to come back: on c51eec2 the impostor kept the link.
    rig = await fiasRig({ retryMs: 60_000 });
    const driver = rig.driver();
    const opening = driver.open(live());
    await eventually('the port is bound', () => english(driver.status().summary).startsWith('waiting'));
    rig.sim.start();
    await opening;
    const fake = await impostor(rig.port);
    await decided(fake);
    const outcomes = [];
    for (let i = 1; i <= 10; i++) {
      outcomes.push(await run(driver, keyJob({ keyCount: 1 }, { commandId: `cmd-${i}` })));
    }
    expect(fake.linked).toBe(false);
    expect(fake.requests.map((r) => fieldOf(r, 'GN'))).toEqual([]);
    expect(outcomes.map((o) => o.ok)).toEqual(Array(10).fill(true));
    expect(rig.sim.cards).toHaveLength(10);
    expect(driver.status().facts).toMatchObject({ secondConnectionsRefused: 1, linkReplacements: 0 });
    expect(rig.log.lines.filter((l) => l.includes('refused another connection'))).toHaveLength(1);
  });

  it('connections again and again from that address while a key is cut: the request in flight completes, each is refused, one log line a minute', async () => {
    const clock = new ManualClock();
    rig = await fiasRig({ lateMs: 200 }, clock);
    const driver = await rig.linked({}, { clock });
    rig.sim.enqueue('slow');
    const attempts: Impostor[] = [];
    const storm = new Promise<void>((resolve) => {
      rig?.sim.onRequest(async () => {
        if (attempts.length > 0 || !rig) return;
        for (let i = 0; i < 20; i++) {
          const fake = await impostor(rig.port);
          attempts.push(fake);
          await decided(fake);
          if (fake.linked) sockets.at(-1)?.destroy();
        }
        resolve();
      });
    });
    const out = await run(driver, keyJob({ keyCount: 2 }));
    await storm;
    expect(out.ok ? out.result.notes : out.error.notes).toBe('2 keys for room 101');
    expect(rig.sim.cards).toHaveLength(2);
    expect(attempts.filter((a) => a.linked || a.requests.length > 0)).toEqual([]);
    await eventually('every attempt refused', () => driver.status().facts.secondConnectionsRefused === 20);
    expect(driver.status().facts.linkReplacements).toBe(0);
    const refusals = () => rig?.log.lines.filter((l) => l.includes('refused another connection')) ?? [];
    expect(refusals()).toHaveLength(1);
    await clock.advance(60_000);
    expect(refusals()).toHaveLength(2);
    expect(refusals()[1]).toMatch(/repeated=19/);
  });
});
