import { progressClock } from '../src/crypto/pass';

// An encryption pass tells its progress at most once per interval per company: the clock is given,
// so the test moves time itself.
test('the first ask says yes, then only once the interval has passed since the last yes', () => {
  let now = 1_000;
  const tell = progressClock(5_000, () => now);
  const asked = (at: number) => {
    now = at;
    return tell();
  };
  expect([asked(1_000), asked(1_001), asked(5_999), asked(6_000), asked(10_999), asked(11_000)]).toEqual([
    true,
    false,
    false,
    true,
    false,
    true,
  ]);
});
