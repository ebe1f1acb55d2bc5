import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrashBudget } from '../crashBudget';

describe('CrashBudget', () => {
  const cases: Array<{ name: string; crashes: number[]; want: boolean[] }> = [
    { name: 'first crashes restart', crashes: [0, 10, 20], want: [true, true, true] },
    { name: 'one over the budget stops', crashes: [0, 1, 2, 3], want: [true, true, true, false] },
    { name: 'old crashes leave the window', crashes: [0, 1, 2, 1000, 1001], want: [true, true, true, true, true] },
    { name: 'at the window edge the old crash is gone', crashes: [0, 1, 2, 100], want: [true, true, true, true] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const b = new CrashBudget(3, 100);
      assert.deepEqual(
        c.crashes.map((t) => b.crashed(t)),
        c.want,
      );
    });
  }
  it('reset forgets', () => {
    const b = new CrashBudget(1, 100);
    assert.equal(b.crashed(0), true);
    assert.equal(b.crashed(1), false);
    b.reset();
    assert.equal(b.count, 0);
    assert.equal(b.crashed(2), true);
  });
});
