import { type FpmateSimulator, startFpmateSimulator } from '../drivers/epson-fpmate/simulator/index.js';
import { startIppSimulator } from '../drivers/ipp-printer/simulator/index.js';
import { EncoderSimulator, startEncoderTcpServer } from '../drivers/salto-encoder/simulator/index.js';
import type { CommandView, PlatformSimulator, ScenarioInput } from '../src/platform-simulator/index.js';
import { BENCH_TOKENS } from './world.js';

/**
 * The memory phase's world: one device for each real driver the agent ships — an Epson RT
 * printer (`epson-fpmate`, against the fpmate printer simulator), a Salto encoder
 * (`salto-encoder` over TCP, against the encoder simulator) and an office printer
 * (`ipp-printer`, against the IPP printer simulator) — so the agent's memory is read with the
 * drivers a hotel runs loaded and opened, not the simulated ones.
 */

const RT = 'e0000000-0000-4000-8000-000000000001';
const ENCODER = 'e0000000-0000-4000-8000-000000000002';
const LASER = 'e0000000-0000-4000-8000-000000000003';
const SERIAL = '99MEYRAM001';

export interface RealDevices {
  scenario(rateLimit: { requests: number; windowSeconds: number }): ScenarioInput;
  /** The agent's `devices:` block. */
  devices: Array<{ id: string } & Record<string, unknown>>;
  /** The `n`-th receipt of the burst, on the RT printer. */
  createReceipt(sim: PlatformSimulator, n: number): CommandView;
  readonly printer: FpmateSimulator;
  close(): Promise<void>;
}

/** Starts the three device simulators on ephemeral ports. */
export async function startRealDevices(): Promise<RealDevices> {
  const printer = await startFpmateSimulator({ serial: SERIAL });
  const encoder = await startEncoderTcpServer(new EncoderSimulator());
  const ipp = await startIppSimulator({ printers: [{ name: 'Laser' }] });
  return {
    printer,
    scenario: (rateLimit) => ({
      name: 'bench-real-devices',
      seed: 7_272_727,
      platform: { ...BENCH_TOKENS, rateLimit, otherEventRate: 0 },
      enterprises: [{ id: 'e0e0e000-0000-4000-8000-000000000000', name: 'Hotel Memoria' }],
      devices: [
        { id: RT, type: 'FiscalMachine', name: 'RT Epson', apiUrl: printer.url, serialNumber: SERIAL },
        { id: ENCODER, type: 'KeyCutter', name: 'Encoder Salto', keyCutterId: '1' },
        { id: LASER, type: 'Printer', name: 'Laser' },
      ],
      reservations: { generate: 20 },
      generator: { autostart: false, rate: 0 },
    }),
    devices: [
      {
        id: RT,
        name: 'RT Epson',
        type: 'FiscalMachine',
        driver: 'epson-fpmate',
        options: { url: printer.url },
      },
      {
        id: ENCODER,
        name: 'Encoder Salto',
        type: 'KeyCutter',
        driver: 'salto-encoder',
        options: { transport: 'tcp', host: '127.0.0.1', port: encoder.port },
      },
      {
        id: LASER,
        name: 'Laser',
        type: 'Printer',
        driver: 'ipp-printer',
        options: { printers: { Laser: ipp.printerUri('Laser') }, cupsQueues: false },
      },
    ],
    createReceipt: (sim) => sim.createFiscalPayload({ deviceId: RT, envelope: 'soap' }),
    close: async () => {
      await Promise.all([printer.close(), encoder.close(), ipp.close()]);
    },
  };
}
