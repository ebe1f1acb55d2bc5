// The crash budget of the language server: restart after a crash unless it
// crashed too often lately.

/** CrashBudget counts crashes in a sliding window. */
export class CrashBudget {
  private times: number[] = [];

  /**
   * @param max crashes allowed within windowMs; one more and the server stays down
   * @param windowMs the sliding window
   */
  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** crashed records a crash at now (ms) and tells whether a restart is still allowed. */
  crashed(now: number): boolean {
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    return this.times.length <= this.max;
  }

  /** count is the number of crashes in the current window (as of the last crash). */
  get count(): number {
    return this.times.length;
  }

  /** reset forgets every crash (after a restart asked by the user). */
  reset(): void {
    this.times = [];
  }
}
