import type { DeviceStore } from '../../drivers-api/types.js';
import { AgentError } from '../../errors.js';
import type { Prepare } from './statements.js';

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
 * What the device stores have read or written, per device and key: the stored JSON, or null for
 * absent. Only this process writes `device_kv` while the daemon runs, so the table never changes
 * behind it — except by a rolled-back transaction, after which the journal clears it (`clear()`).
 * A receipt reads its driver's values several times (counters, the fiscal day, the history's
 * counter): the cache spares those reads their SQL, not their JSON parse, so every `get` still
 * returns a fresh object its caller may change.
 */
export class DeviceStoreCache {
  private readonly values = new Map<string, Map<string, string | null>>();

  of(deviceId: string): Map<string, string | null> {
    let device = this.values.get(deviceId);
    if (!device) {
      device = new Map();
      this.values.set(deviceId, device);
    }
    return device;
  }

  clear(): void {
    this.values.clear();
  }
}

/**
 * The drivers' durable key-value store for one device (`DeviceStore`): values are JSON, `set`
 * is committed when it returns (`flush()` puts it on disk), `set(key, undefined)` deletes.
 * Rejects with JOURNAL_ERROR.
 */
export function createDeviceStore(
  sql: Prepare,
  guard: Guard,
  cache: DeviceStoreCache,
  deviceId: string,
  now: () => number,
  flush: () => Promise<void>,
): DeviceStore {
  return {
    flush,
    get: (key) =>
      guard('device store read', () => {
        const known = cache.of(deviceId);
        let text = known.get(key);
        if (text === undefined) {
          const row = sql('SELECT value_json FROM device_kv WHERE device_id = ? AND key = ?').get(
            deviceId,
            key,
          ) as { value_json: string } | undefined;
          text = row ? row.value_json : null;
          known.set(key, text);
        }
        return text === null ? undefined : parse(text, deviceId, key);
      }),
    set: (key, value) =>
      guard('device store write', () => {
        const known = cache.of(deviceId);
        // Forgotten first: a failed write leaves the next read to the table.
        known.delete(key);
        if (value === undefined) {
          sql('DELETE FROM device_kv WHERE device_id = ? AND key = ?').run(deviceId, key);
          known.set(key, null);
          return;
        }
        const text = JSON.stringify(value);
        sql(
          `INSERT INTO device_kv (device_id, key, value_json, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (device_id, key) DO UPDATE SET value_json = excluded.value_json,
               updated_at = excluded.updated_at`,
        ).run(deviceId, key, text, now());
        known.set(key, text);
      }),
  };
}
