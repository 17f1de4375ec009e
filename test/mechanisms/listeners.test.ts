import { describe, expect, it } from 'vitest';
import { Listeners } from '../../src/listeners.js';

describe('the one listener set', () => {
  it('calls the listeners subscribed when emit starts, in order, and unsubscribes', () => {
    const seen: string[] = [];
    const set = new Listeners<[number]>();
    const offA = set.add((n) => seen.push(`a${n}`));
    set.add((n) => {
      seen.push(`b${n}`);
      set.add((m) => seen.push(`late${m}`));
      offA();
    });
    set.emit(1);
    expect(seen).toEqual(['a1', 'b1']);
    set.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'b2', 'late2']);
    expect(set.size).toBe(3);
  });

  it('never lets a throwing listener stop the others; its error goes to the handler', () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    const set = new Listeners<[number]>((e) => errors.push(e));
    set.add(() => {
      throw new Error('broken subscriber');
    });
    set.add((n) => seen.push(n));
    set.emit(7);
    expect(seen).toEqual([7]);
    expect(errors).toEqual([new Error('broken subscriber')]);
    expect(() => new Listeners<[]>().emit()).not.toThrow();
  });

  it('can hand a listener error back to the emitter, as the simulators want for tests', () => {
    const set = new Listeners<[]>((e) => {
      throw e;
    });
    set.add(() => {
      throw new Error('expectation failed');
    });
    expect(() => set.emit()).toThrow('expectation failed');
  });
});
