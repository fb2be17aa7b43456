import { FairSlots } from '../src/fair-slots';

// The in-process turns of heavy work between companies: tasks are held open by hand, so the order
// in which they start is what is checked, never a time.

/** A task that runs until `finish()`; `started` resolves when FairSlots lets it start. */
function heldTask(order: string[], name: string) {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    running,
    finish: () => finish(),
    task: async () => {
      order.push(name);
      started();
      await done;
    },
  };
}

test('one slot: a company that queued many holds another company’s single task back by one at most', async () => {
  const slots = new FairSlots(1, 1);
  const order: string[] = [];
  const a = ['a1', 'a2', 'a3', 'a4'].map((name) => heldTask(order, name));
  const runs = a.map((t) => slots.run('A', t.task));
  await a[0]!.running;
  const b = heldTask(order, 'b1');
  const runB = slots.run('B', b.task);
  expect(slots.waiting).toBe(4);
  a[0]!.finish();
  await b.running;
  expect(order).toEqual(['a1', 'b1']);
  b.finish();
  for (const t of a.slice(1)) {
    await t.running;
    t.finish();
  }
  await Promise.all([...runs, runB]);
  // A's own tasks keep the order A queued them in.
  expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  expect({ active: slots.active, waiting: slots.waiting }).toEqual({ active: 0, waiting: 0 });
});

test('the per-company cap leaves free slots to the others; companies then take turns', async () => {
  const slots = new FairSlots(3, 2);
  const order: string[] = [];
  const [a1, a2, a3, b1, b2, c1] = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((name) => heldTask(order, name));
  const runs = [a1, a2, a3, b1, b2, c1].map((t, i) => slots.run(['A', 'A', 'A', 'B', 'B', 'C'][i]!, t!.task));
  await Promise.all([a1!.running, a2!.running, b1!.running]);
  // A has its cap of two running: its third waits although it asked before B's.
  expect(order).toEqual(['a1', 'a2', 'b1']);
  a1!.finish();
  // A free slot goes to the company with the fewest running: C (none), not A or B (one each).
  await c1!.running;
  b1!.finish();
  await b2!.running;
  a2!.finish();
  await a3!.running;
  expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'b2', 'a3']);
  for (const t of [a3, b2, c1]) t!.finish();
  await Promise.all(runs);
});

test('a failing task frees its slot and rejects its caller', async () => {
  const slots = new FairSlots(1, 1);
  await expect(slots.run('A', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  await expect(slots.run('A', async () => 'next')).resolves.toBe('next');
});
