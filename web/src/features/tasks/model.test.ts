import { describe, expect, it } from '@jest/globals';
import { nextColumn } from './kanban-keys';
import { filtersFromParams, isOverdue, paramsWithFilters } from './model';

const ID = 'a0000000-0000-4000-8000-00000000000a';

describe('task filters in the URL', () => {
  it('keeps what the form could have written and drops the rest', () => {
    const params = new URLSearchParams(
      `mine=true&assignee=${ID}&status=done&clientId=not-an-id&due=yesterday&sort=title&order=sideways&task=x`,
    );
    expect(filtersFromParams(params)).toEqual({ mine: true, assignee: ID, status: 'done', sort: 'title' });
    expect(filtersFromParams(new URLSearchParams('mine=1'))).toEqual({});
  });

  it('writes the filters in, removes emptied ones, and leaves the open task alone', () => {
    const next = paramsWithFilters(new URLSearchParams('task=t1&status=todo&mine=true'), {
      due: 'week',
      sort: 'createdAt',
      order: 'desc',
    });
    expect(next.toString()).toBe('task=t1&due=week&sort=createdAt&order=desc');
  });
});

describe('overdue', () => {
  it('is an open task whose due day (UTC) has passed', () => {
    expect(isOverdue({ status: 'todo', dueDate: '2026-03-01' }, '2026-03-02')).toBe(true);
    expect(isOverdue({ status: 'in_progress', dueDate: '2026-03-02' }, '2026-03-02')).toBe(false);
    expect(isOverdue({ status: 'done', dueDate: '2026-03-01' }, '2026-03-02')).toBe(false);
    expect(isOverdue({ status: 'todo', dueDate: null }, '2026-03-02')).toBe(false);
  });
});

describe('keyboard moves between columns', () => {
  // Three columns side by side (a wide screen) and the same three stacked (a phone).
  const row = [0, 1, 2].map((i) => ({ left: i * 320, top: 100, width: 300, height: 600 }));
  const stack = [0, 1, 2].map((i) => ({ left: 16, top: 100 + i * 700, width: 340, height: 680 }));
  const cardIn = (column: { left: number; top: number }) => ({
    left: column.left + 10,
    top: column.top + 40,
    width: 280,
    height: 60,
  });

  it('goes to the nearest column the arrow’s way, and nowhere past the last', () => {
    expect(nextColumn('ArrowRight', cardIn(row[0]!), row)).toBe(row[1]);
    expect(nextColumn('ArrowLeft', cardIn(row[1]!), row)).toBe(row[0]);
    expect(nextColumn('ArrowRight', cardIn(row[2]!), row)).toBeNull();
    expect(nextColumn('ArrowDown', cardIn(row[0]!), row)).toBeNull();
    expect(nextColumn('ArrowDown', cardIn(stack[0]!), stack)).toBe(stack[1]);
    expect(nextColumn('ArrowUp', cardIn(stack[2]!), stack)).toBe(stack[1]);
    expect(nextColumn('Enter', cardIn(row[0]!), row)).toBeNull();
  });
});
