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

/** The rect of the nearest column from `from` in the direction of `key`, if there is one. */
export function nextColumn(key: string, from: Rect, columns: readonly Rect[]): Rect | null {
  const direction = DIRECTIONS[key];
  if (!direction) return null;
  const [dx, dy] = direction;
  const here = centre(from);
  let best: Rect | null = null;
  let bestDistance = Infinity;
  for (const column of columns) {
    // A column counts when the card is not already inside it and it lies the arrow's way.
    const inside = here.x >= column.left && here.x <= column.left + column.width && here.y >= column.top && here.y <= column.top + column.height;
    if (inside) continue;
    const there = centre(column);
    const along = (there.x - here.x) * dx + (there.y - here.y) * dy;
    if (along <= 0) continue;
    const distance = Math.hypot(there.x - here.x, there.y - here.y);
    if (distance < bestDistance) {
      best = column;
      bestDistance = distance;
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
