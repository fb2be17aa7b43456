import { jest } from '@jest/globals';
import { ContextTimers, unrefInterval } from '../src';

// The timers a service keeps per context: each stack of a process stops its own, and none keeps
// the process alive.

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('every() ticks on its interval until stop() of its context; another context keeps its own', () => {
  const timers = new ContextTimers();
  const one = {};
  const two = {};
  const ticks = { one: 0, two: 0 };
  timers.every(one, 1000, () => void ticks.one++);
  timers.every(two, 1000, () => void ticks.two++);
  jest.advanceTimersByTime(999);
  expect(ticks).toEqual({ one: 0, two: 0 });
  jest.advanceTimersByTime(2001);
  expect(ticks).toEqual({ one: 3, two: 3 });
  timers.stop(one);
  jest.advanceTimersByTime(2000);
  expect(ticks).toEqual({ one: 3, two: 5 });
  timers.stop(two);
  jest.advanceTimersByTime(2000);
  expect(ticks).toEqual({ one: 3, two: 5 });
});

test('add() keeps timers started elsewhere, all cleared by one stop(); intervals never hold the process', () => {
  const timers = new ContextTimers();
  const ctx = {};
  let ticks = 0;
  const first = unrefInterval(() => void ticks++, 500);
  const second = unrefInterval(() => void ticks++, 500);
  expect(first.hasRef()).toBe(false);
  timers.add(ctx, first);
  timers.add(ctx, second);
  jest.advanceTimersByTime(500);
  expect(ticks).toBe(2);
  timers.stop(ctx);
  jest.advanceTimersByTime(5000);
  expect(ticks).toBe(2);
  // Stopping a context that has none (a service whose start failed) is harmless.
  timers.stop({});
});
