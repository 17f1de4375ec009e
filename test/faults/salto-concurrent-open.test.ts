import { afterEach, describe, expect, it } from 'vitest';
import { saltoEncoderFactory } from '../../drivers/salto-encoder/index.js';
import {
  EncoderSimulator,
  type EncoderTcpServer,
  startEncoderTcpServer,
} from '../../drivers/salto-encoder/simulator/index.js';
import type { Driver } from '../../src/drivers-api/types.js';
import { silentLogger } from '../../src/log.js';
import { createTransportFactory } from '../../src/transport/factory.js';
import { testDriverContext } from '../helpers/driver-context.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Regression test for a bug the fault campaign found (a Salto command stuck in `reconciling` for
 * good after a restart, its device queue frozen behind it): at start-up the agent opens every
 * driver in the background (`DeviceWatch` in src/agent/devices.ts) while the engine's recovery
 * opens the same driver to reconcile. Over TCP the salto-encoder driver ran both probes at once on
 * one `EncoderLink`, whose single `waiter` slot the second probe overwrote; the first probe's
 * timeout and abort then found "not my waiter" and never settled it (fixed in 376ff61: exchanges
 * take turns). Every `open()` must settle, whatever runs beside it.
 */

/** Whether a promise has settled yet (it is never awaited here, so a hang cannot hang the test). */
function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return () => done;
}

describe('salto-encoder over TCP: concurrent opens (found by the fault campaign)', () => {
  let server: EncoderTcpServer | undefined;
  let driver: Driver | undefined;

  afterEach(async () => {
    await driver?.close();
    await server?.close();
  });

  it('settles two open() calls made at the same time (background open + recovery)', async () => {
    const sim = new EncoderSimulator();
    server = await startEncoderTcpServer(sim);
    const options = saltoEncoderFactory.configSchema.parse({
      transport: 'tcp',
      host: server.host,
      port: server.port,
      ackTimeoutMs: 300,
      connectTimeoutMs: 500,
    });
    driver = saltoEncoderFactory.create(
      options,
      testDriverContext({ io: createTransportFactory({ log: silentLogger }) }),
    );
    const background = driver.open(AbortSignal.timeout(1000));
    const recovery = driver.open(new AbortController().signal);
    const outcome = [settled(background), settled(recovery)];
    // Each open() is bounded by the driver's own timeouts (ack 300 ms, connect 500 ms, the 1 s
    // signal); the wait is only the safety net that names the one left hanging.
    await eventually(
      () =>
        `open() #1 (background, 1 s abort signal) and #2 (recovery) to settle; settled: ${outcome.map((s) => s())}`,
      () => outcome.every((s) => s()),
    );
    expect(outcome.map((s) => s())).toEqual([true, true]);
  });
});
