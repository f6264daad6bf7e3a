import { describe, expect, it } from 'vitest';
import { coalescedRuns } from './coalesced-runs';

/** A run that waits until released, recording when it started. */
function gatedRuns() {
  const started: string[] = [];
  const releases: Array<() => void> = [];
  const run = (key: string) => new Promise<void>((resolve) => {
    started.push(key);
    releases.push(resolve);
  });
  return { started, release: () => releases.shift()!(), run };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('coalescedRuns', () => {
  it('runs once per key at a time; calls during a run share the next one', async () => {
    const gate = gatedRuns();
    const recount = coalescedRuns(gate.run);
    const first = recount('a');
    const second = recount('a');
    const third = recount('a');
    expect(second).toBe(third);
    await tick();
    expect(gate.started).toEqual(['a']);
    gate.release();
    await first;
    await tick();
    expect(gate.started).toEqual(['a', 'a']);
    gate.release();
    await Promise.all([second, third]);
    expect(gate.started).toEqual(['a', 'a']);
  });

  it('keeps keys apart', async () => {
    const gate = gatedRuns();
    const recount = coalescedRuns(gate.run);
    void recount('a');
    void recount('b');
    await tick();
    expect(gate.started).toEqual(['a', 'b']);
  });

  it('starts the next run after a failed one, and the failure reaches only its own callers', async () => {
    let calls = 0;
    const recount = coalescedRuns(async () => {
      calls += 1;
      await tick();
      if (calls === 1) throw new Error('lost connection');
    });
    const failed = recount('a');
    const after = recount('a');
    await expect(failed).rejects.toThrow('lost connection');
    await expect(after).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
