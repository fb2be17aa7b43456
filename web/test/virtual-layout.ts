// jsdom lays nothing out: elements get a size for the tests of a file, so that a virtualised list
// (@tanstack/react-virtual) renders its rows; the real measures come back after each test.
import { afterEach, beforeEach } from '@jest/globals';

export function giveElementsASize(width = 800, height = 600): void {
  const layout = ['clientWidth', 'clientHeight'].map(
    (name) => [name, Object.getOwnPropertyDescriptor(Element.prototype, name)] as const,
  );
  beforeEach(() => {
    Object.defineProperty(Element.prototype, 'clientWidth', { configurable: true, get: () => width });
    Object.defineProperty(Element.prototype, 'clientHeight', { configurable: true, get: () => height });
  });
  afterEach(() => {
    for (const [name, descriptor] of layout) if (descriptor) Object.defineProperty(Element.prototype, name, descriptor);
  });
}
