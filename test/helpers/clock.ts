import { moveClock, nowMs } from '../../src/lib/time.js';

/**
 * Time for tests: the app in this process takes "now" from src/lib/time.ts, so a test moves it
 * instead of sleeping. The root hooks (test/setup.ts) put it back after every test.
 */
export { moveClock, resetClock } from '../../src/lib/time.js';

/** Moves "now" forward to `secondInWindow` seconds into the next fixed window of `windowSeconds` (rate limits). */
export function moveToWindowStart(windowSeconds: number, secondInWindow = 1): void {
  const seconds = nowMs() / 1000;
  const next = Math.ceil(seconds / windowSeconds) * windowSeconds + secondInWindow;
  moveClock((next - seconds) * 1000);
}
