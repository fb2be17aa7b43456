/**
 * One instance per service context, made on first use: the routes, handlers and background work
 * of one context share it (a key ring's cache, say), while the stacks of one process (the tests
 * run several) never share each other's.
 */
export function perContext<C extends object, T>(make: (ctx: C) => T): (ctx: C) => T {
  const made = new WeakMap<C, T>();
  return (ctx) => {
    let found = made.get(ctx);
    if (found === undefined) made.set(ctx, (found = make(ctx)));
    return found;
  };
}
