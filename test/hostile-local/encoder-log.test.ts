import { afterEach, describe, expect, it } from 'vitest';
import { saltoEncoderFactory } from '../../drivers/salto-encoder/index.js';
import { EncoderSimulator, startEncoderTcpServer } from '../../drivers/salto-encoder/simulator/index.js';
import { createMemoryLogger, silentLogger } from '../../src/log.js';
import { createTransportFactory } from '../../src/transport/factory.js';
import * as fias from '../drivers/fias-lock/rig.js';
import * as salto from '../drivers/salto-encoder/rig.js';
import { testDriverContext } from '../helpers/driver-context.js';

/**
 * Issue 27, finding 9 (encoder payloads in the log): at debug level the Salto driver logged every
 * frame it sent and received byte by byte, and the FIAS driver every record — the guest's name,
 * the rooms and the stay — so journald, and the support bundles made from it, kept the names of
 * guests long after their commands closed. Now a log line names a frame's command (or a record's
 * type) and its length, nothing of its fields.
 */

const FIRST = 'Zebedeo';
const LAST = 'Quarantotti';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function guestFree(lines: readonly string[]): void {
  const text = lines.join('\n');
  expect(text).not.toContain(LAST);
  expect(text).not.toContain(FIRST);
  expect(text.toUpperCase()).not.toContain(LAST.toUpperCase());
}

describe('encoder frames never reach the log with their fields', () => {
  it('Salto: debug lines name the frame and its length, never the guest', async () => {
    const sim = new EncoderSimulator({ rooms: ['101'], encoderIds: ['E1'] });
    const server = await startEncoderTcpServer(sim);
    const log = createMemoryLogger({ level: 'debug' });
    const options = saltoEncoderFactory.configSchema.parse({
      transport: 'tcp',
      host: server.host,
      port: server.port,
      ...salto.FAST,
    });
    const driver = saltoEncoderFactory.create(options, {
      ...testDriverContext({ io: createTransportFactory({ log: silentLogger }) }),
      log,
    });
    cleanups.push(async () => {
      await driver.close();
      await server.close();
    });
    await driver.open(new AbortController().signal);
    const out = await salto.run(
      driver,
      salto.keyJob({ keyCount: 1, guest: { firstName: FIRST, lastName: LAST } }),
    );
    expect(out.ok).toBe(true);
    // The simulator got the name: the frames carried it, and the log did not.
    expect(JSON.stringify(sim.cards)).toMatch(new RegExp(LAST, 'i'));
    expect(log.lines.some((l) => /encoder [←→]/.test(l) && /frame [A-Z0-9]+, \d+ bytes/.test(l))).toBe(true);
    guestFree(log.lines);
  });

  it('FIAS: debug lines name the record type and its length, never the guest', async () => {
    const rig = await fias.fiasRig();
    cleanups.push(() => rig.dispose());
    const driver = rig.driver();
    rig.sim.start();
    await driver.open(fias.live());
    await rig.sim.whenAlive();
    const out = await fias.run(
      driver,
      fias.keyJob({ keyCount: 1, guest: { firstName: FIRST, lastName: LAST } }),
    );
    expect(out.ok).toBe(true);
    expect(rig.sim.cards[0]?.guest).toContain(LAST);
    expect(rig.log.lines.some((l) => /FIAS [←→]/.test(l) && /KR record, \d+ bytes/.test(l))).toBe(true);
    guestFree(rig.log.lines);
  });
});
