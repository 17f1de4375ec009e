import type { Clock } from '../../../src/clock.js';
import { type SimulatorExchange, type SimulatorHttp, startSimulatorHttp } from '../../simulator-kit/http.js';
import type { Handled } from './printer.js';
import type { RchFaults } from './types.js';

/**
 * The HTTP side of the simulated web service, on the simulator kit (`drivers/simulator-kit/http.ts`):
 * `POST /service.cgi` (lyancoder/fiscal-printer `lib/printer/RCH/xml-RCH-http.ts` `send`; optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `$PrinterUrl`), answered 200 with the headers RCH's
 * "Manuale Web Service Print! F" V5 R03/2019 §3 shows (`Content-Type: application/xml`,
 * `Connection: close`, `Cache-Control: no-cache`, `Access-Control-Allow-Origin: *`). The same
 * section: "Le richieste di servizio possono essere elaborate una alla volta. Se la stampante non
 * può elaborare la richiesta, uno stato di "occupato" viene inviato e la richiesta deve essere
 * inviata nuovamente": a request arriving while another is handled (or held by `slow`) gets the
 * busy answer at once, carried out never — so the kit serves requests side by side
 * (`oneAtATime: false`) and this file answers the second one busy.
 *
 * The faults are the family's (`types.ts` `RchFaults`): `slow` holds every answer (or only a printing request's) on the clock,
 * `dropAfterPrint` closes the connection of a request that printed, `loseAnswer` never answers a
 * request that changed the printer (the connection stays open until the client gives up or the
 * simulator closes or restarts); the kit's `refused` stops listening.
 *
 * **Inferred**: 404 for another path, 405 for another method; a body over 1 MiB cut off (the
 * manual's per-connection limit is in a table no public copy shows).
 */

const MAX_BODY = 1024 * 1024;

const HEADERS = {
  'Cache-Control': 'no-cache',
  'Access-Control-Allow-Origin': '*',
  Connection: 'close',
};

export interface ServiceHooks {
  handle(body: string): Handled;
  busy(body: string): Handled;
  /** Runs once a request is handled, before its answer goes out (tests flip faults there). */
  handled(result: Handled): void;
}

export async function listenService(
  o: {
    host: string;
    port: number;
    clock: Clock;
    faults: RchFaults;
    tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
  },
  hooks: ServiceHooks,
): Promise<SimulatorHttp<RchFaults>> {
  let inFlight = false;
  const send = (exchange: SimulatorExchange<RchFaults>, xml: string) => exchange.send(xml, 'application/xml');

  const handle = async (body: string, exchange: SimulatorExchange<RchFaults>) => {
    if (inFlight) {
      const refused = hooks.busy(body);
      hooks.handled(refused);
      return send(exchange, refused.xml);
    }
    inFlight = true;
    try {
      const result = hooks.handle(body);
      // Read before the listeners run: they may switch faults for the next exchange.
      const f = { ...o.faults };
      hooks.handled(result);
      if (f.slow && (!f.slow.printedOnly || result.printed)) await o.clock.sleep(f.slow.ms);
      if (result.printed && f.dropAfterPrint) return exchange.drop();
      if (result.changed && f.loseAnswer) return;
      send(exchange, result.xml);
    } finally {
      inFlight = false;
    }
  };

  return startSimulatorHttp({
    host: o.host,
    port: o.port,
    tls: o.tls,
    clock: o.clock,
    faults: o.faults,
    serves: (path) => path === '/service.cgi',
    oneAtATime: false,
    headers: HEADERS,
    maxBodyBytes: MAX_BODY,
    handle,
  });
}
