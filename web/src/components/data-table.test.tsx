import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { en } from '../i18n/locales/en';
import { DataTable, type DataColumn, type DataTableProps } from './data-table';
import { DropdownMenu } from './dropdown-menu';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

interface Person {
  id: string;
  name: string;
  age: number | null;
}
const people: Person[] = [
  { id: '1', name: 'Bea', age: 41 },
  { id: '2', name: 'Ada', age: null },
  { id: '3', name: 'Cy', age: 7 },
];
const columns: Array<DataColumn<Person>> = [
  { id: 'name', header: 'Name', cell: (p) => p.name, sortValue: (p) => p.name, canHide: false },
  { id: 'age', header: 'Age', cell: (p) => (p.age === null ? '—' : String(p.age)), sortValue: (p) => p.age },
  { id: 'note', header: 'Note', cell: (p) => `note ${p.id}` },
];

function show(props: Partial<DataTableProps<Person>> = {}) {
  return render(
    <I18nextProvider i18n={i18n}>
      <DataTable
        label="People"
        columns={columns}
        rows={people}
        rowId={(p) => p.id}
        emptyText="Nobody here"
        {...props}
      />
    </I18nextProvider>,
  );
}

const firstColumn = () =>
  screen.getAllByTestId('data-table-row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('data table', () => {
  it('shows the rows in the given order, then sorts by a column up, down and back', async () => {
    const user = userEvent.setup();
    show();
    expect(firstColumn()).toEqual(['Bea', 'Ada', 'Cy']);
    const age = screen.getByRole('button', { name: /Age/ });
    await user.click(age);
    // Numbers compare as numbers; an empty value goes last either way.
    expect(
      screen.getAllByTestId('data-table-row').map((row) => within(row).getAllByRole('cell')[1]!.textContent),
    ).toEqual(['41', '7', '—']);
    expect(screen.getByRole('columnheader', { name: /Age/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(age);
    expect(firstColumn()).toEqual(['Cy', 'Bea', 'Ada']);
    expect(screen.getByRole('columnheader', { name: /Age/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Name/ }));
    expect(firstColumn()).toEqual(['Ada', 'Bea', 'Cy']);
    // A column without a sort value has no sort button.
    expect(screen.queryByRole('button', { name: /Note/ })).toBeNull();
  });

  it('hides and shows columns from the Columns menu; a column that cannot hide is not offered', async () => {
    const user = userEvent.setup();
    show({ initiallyHidden: ['note'] });
    expect(screen.queryByRole('columnheader', { name: 'Note' })).toBeNull();
    await user.click(screen.getByText('Columns', { selector: 'summary' }));
    expect(screen.queryByRole('checkbox', { name: 'Name' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Note' }));
    expect(screen.getByRole('columnheader', { name: 'Note' })).toBeInTheDocument();
    expect(screen.getAllByText(/^note \d$/)).toHaveLength(3);
    await user.click(screen.getByRole('checkbox', { name: 'Age' }));
    expect(screen.queryByRole('columnheader', { name: /Age/ })).toBeNull();
    expect(within(screen.getAllByTestId('data-table-row')[0]!).getAllByRole('cell')).toHaveLength(2);
  });

  it('renders each row’s actions in a last, named column', async () => {
    const user = userEvent.setup();
    const open = jest.fn();
    show({
      rowActions: (p) => (
        <button type="button" onClick={() => open(p.id)}>
          Open {p.name}
        </button>
      ),
    });
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open Cy' }));
    expect(open).toHaveBeenCalledWith('3');
  });

  it('shows loading, empty and error states instead of rows', async () => {
    const user = userEvent.setup();
    const { rerender } = show({ rows: [], loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(screen.getByRole('table', { name: 'People' })).toHaveAttribute('aria-busy', 'true');
    const retry = jest.fn();
    const view = (props: Partial<DataTableProps<Person>>) => (
      <I18nextProvider i18n={i18n}>
        <DataTable label="People" columns={columns} rowId={(p) => p.id} emptyText="Nobody here" rows={[]} {...props} />
      </I18nextProvider>
    );
    rerender(view({}));
    expect(screen.getByTestId('data-table-empty')).toHaveTextContent('Nobody here');
    rerender(view({ rows: people, error: 'Server said no', onRetry: retry }));
    expect(screen.getByRole('alert')).toHaveTextContent('Server said no');
    expect(screen.queryAllByTestId('data-table-row')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
  });

  it('scrolls both ways in a named, focusable region of bounded height, with a hint for phones', () => {
    show();
    const region = screen.getByRole('region', { name: 'People' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region.className).toMatch(/(^| )overflow-auto( |$)/);
    expect(region.className).toMatch(/(^| )max-h-\[/);
    expect(within(region).getByRole('table', { name: 'People' })).toBeInTheDocument();
    expect(screen.getByTestId('data-table-scroll-hint')).toHaveTextContent(en.dataTable.scrollHint);
  });

  it('keeps every header cell, the actions one too, stuck to the top of the region on an opaque background', () => {
    show({ rowActions: (p) => <button type="button">Open {p.name}</button> });
    const headers = screen.getAllByRole('columnheader');
    expect(headers).toHaveLength(4);
    for (const header of headers) {
      expect(header.className).toMatch(/(^| )sticky( |$)/);
      expect(header.className).toMatch(/(^| )top-0( |$)/);
      expect(header.className).toMatch(/(^| )bg-gray-50( |$)/);
      expect(header.className).toMatch(/(^| )dark:bg-\[color-mix\(/);
    }
    // The row's buttons stay at the right edge from 768 px only: on a phone they would cover the cells.
    const actions = screen.getByRole('columnheader', { name: 'Actions' });
    expect(actions.className).toMatch(/(^| )md:sticky( |$)/);
    expect(actions.className).toMatch(/(^| )md:right-0( |$)/);
    expect(actions.className).not.toMatch(/(^| )right-0( |$)/);
    expect(screen.getAllByTestId('data-table-actions')[0]!.className).not.toMatch(/(^| )right-0( |$)/);
  });

  it('opens a row’s menu on the window, where the scrolling region cannot cut it off', async () => {
    const user = userEvent.setup();
    show({
      rowActions: (p) => (
        <DropdownMenu label={`Menu of ${p.name}`} button="⋯" entries={[{ key: 'edit', label: 'Edit' }]} />
      ),
    });
    await user.click(screen.getByRole('button', { name: 'Menu of Cy' }));
    expect(screen.getByRole('menu', { name: 'Menu of Cy' })).toHaveStyle({ position: 'fixed' });
  });
});
