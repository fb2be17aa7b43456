// The board's keyboard moves for dnd-kit's KeyboardSensor: an arrow key takes the picked-up card to
// the nearest column that way (beside on a wide screen, above or below where the columns stack),
// instead of dnd-kit's default 25 px steps, which would take a dozen presses per column.
import type { KeyboardCoordinateGetter } from '@dnd-kit/core';

const DIRECTIONS: Record<string, readonly [number, number]> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
};

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const centre = (rect: Rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

/** How far `value` lies outside [from, to] (0 inside). */
const outside = (value: number, from: number, to: number) => Math.max(0, from - value, value - to);

/**
 * The rect of the nearest column from `from` in the direction of `key`, if there is one: a column
 * that begins past the card's centre that way, and lies more that way than aside (so ↓ on a wide
 * screen does not jump to a neighbour beside it).
 */
export function nextColumn(key: string, from: Rect, columns: readonly Rect[]): Rect | null {
  const direction = DIRECTIONS[key];
  if (!direction) return null;
  const [dx, dy] = direction;
  const here = centre(from);
  let best: Rect | null = null;
  let bestDistance = Infinity;
  for (const column of columns) {
    const right = column.left + column.width;
    const bottom = column.top + column.height;
    const along =
      dx > 0 ? column.left - here.x : dx < 0 ? here.x - right : dy > 0 ? column.top - here.y : here.y - bottom;
    const aside = dx !== 0 ? outside(here.y, column.top, bottom) : outside(here.x, column.left, right);
    if (along <= 0 || aside > along) continue;
    if (along + aside < bestDistance) {
      best = column;
      bestDistance = along + aside;
    }
  }
  return best;
}

export const columnCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const { collisionRect, droppableRects } = context;
  if (!collisionRect || !DIRECTIONS[event.code]) return undefined;
  event.preventDefault();
  const target = nextColumn(event.code, collisionRect, [...droppableRects.values()]);
  if (!target) return undefined;
  // The card's top-left, set inside the column near its top (so it overlaps that column most).
  return { x: target.left + Math.max(0, (target.width - collisionRect.width) / 2), y: target.top + 8 };
};
