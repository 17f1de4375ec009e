import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { AgentError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/log.js';
import { textMessage } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { EscapedFaults, stackFiles } from '../../src/supervision/escaped-faults.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

const TOKEN = 'ACCESS-TOKEN-SECRET-42';

/** An error as node would show it when thrown inside the WebSocket listener's message handler. */
function thrownInWebSocketHandler(): Error {
  const error = new TypeError(`Cannot read properties of undefined (reading 'Events') ${TOKEN}`);
  error.stack = [
    `TypeError: ${error.message}`,
    '    at ConnectorSocket.handleMessage (/opt/frontdesk-agent/dist/src/connector/websocket.js:214:31)',
    '    at WebSocket.<anonymous> (/opt/frontdesk-agent/dist/src/connector/websocket.js:170:39)',
    '    at WebSocket.emit (node:events:519:28)',
    '    at Receiver.receiverOnMessage (/opt/frontdesk-agent/node_modules/ws/lib/websocket.js:1220:20)',
  ].join('\n');
  return error;
}

function rig() {
  const clock = new ManualClock();
  const log = createMemoryLogger({ secrets: [TOKEN] });
  const faults = new EscapedFaults({ clock, log });
  const restarts: string[] = [];
  faults.register({
    name: 'websocket',
    owns: (file) => /[\\/]src[\\/]connector[\\/]websocket\.[jt]s$/.test(file),
    restart: async () => {
      restarts.push('websocket');
    },
  });
  return { clock, log, faults, restarts };
}

describe('EscapedFaults: the process-level guard', () => {
  it('reads the files of a stack trace', () => {
    expect(stackFiles(thrownInWebSocketHandler()).map((f) => f.file)).toEqual([
      '/opt/frontdesk-agent/dist/src/connector/websocket.js',
      '/opt/frontdesk-agent/dist/src/connector/websocket.js',
      'node:events',
      '/opt/frontdesk-agent/node_modules/ws/lib/websocket.js',
    ]);
    expect(stackFiles('not an error')).toEqual([]);
  });

  it('logs one line with code, message and place, never the token, and restarts the component it came from', async () => {
    const { log, faults, restarts } = rig();
    const fault = faults.report(thrownInWebSocketHandler(), 'uncaughtException');
    expect(fault).toMatchObject({
      code: 'INTERNAL',
      where: 'src/connector/websocket.js:214',
      component: 'websocket',
      origin: 'uncaughtException',
    });
    await letPendingWorkRun();
    expect(restarts).toEqual(['websocket']);
    const line = log.lines.find((l) => l.includes('an error escaped every handler')) ?? '';
    expect(line).toContain('code=INTERNAL');
    expect(line).toContain('where=src/connector/websocket.js:214');
    expect(line).toContain('[redacted]');
    expect(log.lines.join('\n')).not.toContain(TOKEN);
    expect(log.lines.join('\n')).not.toContain('receiverOnMessage');
  });

  it('keeps the code of an AgentError, flattens a message to one line, and restarts nothing it cannot name', async () => {
    const { faults, restarts } = rig();
    const fault = faults.report(
      new AgentError('JOURNAL_ERROR', 'disk full\n  at somewhere'),
      'unhandledRejection',
    );
    expect(fault).toMatchObject({ code: 'JOURNAL_ERROR', message: 'disk full at somewhere' });
    expect(fault.component).toBeUndefined();
    expect(faults.report('a string was thrown', 'uncaughtException')).toMatchObject({
      code: 'INTERNAL',
      message: 'a string was thrown',
    });
    await letPendingWorkRun();
    expect(restarts).toEqual([]);
  });

  it('is a /healthz reason for 5 minutes; from 3 in 10 minutes the agent is no longer alive for the watchdog', async () => {
    const { clock, faults } = rig();
    expect(faults.reasons()).toEqual([]);
    faults.report(new Error('first'), 'uncaughtException');
    // Thrown here, in a test file: no frame of the agent's own code to name.
    expect(faults.reasons().map(english)).toEqual([
      'an unexpected error escaped 0 s ago (INTERNAL: first); 1 in the last 10 min',
    ]);
    expect(faults.alive()).toBe(true);
    await clock.advance(5 * 60_000 + 1);
    expect(faults.reasons()).toEqual([]);
    faults.report(new Error('second'), 'uncaughtException');
    expect(faults.alive()).toBe(true);
    faults.report(new Error('third'), 'unhandledRejection');
    expect(faults.alive()).toBe(false);
    expect(english(faults.reasons()[0] ?? textMessage(''))).toMatch(/3 in the last 10 min$/);
    await clock.advance(5 * 60_000);
    // The first has left the 10-minute window.
    expect(faults.alive()).toBe(true);
    expect(faults.count).toBe(3);
  });

  it('a restart that fails is logged, and a component is not restarted twice at once', async () => {
    const clock = new ManualClock();
    const log = createMemoryLogger();
    const faults = new EscapedFaults({ clock, log });
    let calls = 0;
    let finish: () => void = () => undefined;
    faults.register({
      name: 'websocket',
      owns: (file) => file.endsWith('/src/connector/websocket.js'),
      restart: () => {
        calls++;
        return calls === 1
          ? new Promise<void>((resolve) => {
              finish = resolve;
            })
          : Promise.reject(new Error('cannot listen'));
      },
    });
    faults.report(thrownInWebSocketHandler(), 'uncaughtException');
    faults.report(thrownInWebSocketHandler(), 'uncaughtException');
    expect(calls).toBe(1);
    finish();
    await clock.advance(0);
    faults.report(thrownInWebSocketHandler(), 'uncaughtException');
    await clock.advance(0);
    expect(calls).toBe(2);
    expect(
      log.lines.some((l) => l.includes('component could not be restarted') && l.includes('cannot listen')),
    ).toBe(true);
  });
});
