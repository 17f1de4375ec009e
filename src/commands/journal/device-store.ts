import type { DeviceStore } from '../../drivers-api/types.js';
import { AgentError } from '../../errors.js';
import type { Db } from './schema.js';

type Guard = <T>(what: string, fn: () => T) => T;

function parse(text: string, deviceId: string, key: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AgentError('JOURNAL_ERROR', `Journal: unreadable device store value ${deviceId}/${key}`, {
      cause: e,
    });
  }
}

/**
 * The drivers' durable key-value store for one device (`DeviceStore`): values are JSON, `set`
 * is committed when it returns (`flush()` puts it on disk), `set(key, undefined)` deletes.
 * Rejects with JOURNAL_ERROR.
 */
export function createDeviceStore(
  db: Db,
  guard: Guard,
  deviceId: string,
  now: () => number,
  flush: () => Promise<void>,
): DeviceStore {
  return {
    flush,
    get: (key) =>
      guard('device store read', () => {
        const row = db
          .prepare('SELECT value_json FROM device_kv WHERE device_id = ? AND key = ?')
          .get(deviceId, key) as { value_json: string } | undefined;
        return row ? parse(row.value_json, deviceId, key) : undefined;
      }),
    set: (key, value) =>
      guard('device store write', () => {
        if (value === undefined) {
          db.prepare('DELETE FROM device_kv WHERE device_id = ? AND key = ?').run(deviceId, key);
          return;
        }
        db.prepare(
          `INSERT INTO device_kv (device_id, key, value_json, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (device_id, key) DO UPDATE SET value_json = excluded.value_json,
               updated_at = excluded.updated_at`,
        ).run(deviceId, key, JSON.stringify(value), now());
      }),
  };
}
