// The shared recording filters: each choice reports the whole set, the speaker's name applies on
// Enter, Clear keeps the company; and the filters' catalogue is complete in every language (it
// lives outside features/, where i18n/catalogues.test.ts looks).
import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { en } from '../../i18n/locales/en';
import type { LibraryFilters } from './library-filters';
import { LibraryFiltersForm } from './library-filters-form';
import { catalogue } from './library-filters-i18n';

const COMPANY = 'c0000000-0000-4000-8000-000000000001';

function renderForm(value: LibraryFilters, withStatus = true) {
  const onChange = jest.fn<(next: LibraryFilters) => void>();
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: 'en',
    initAsync: false,
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <LibraryFiltersForm
        value={value}
        onChange={onChange}
        tags={[{ name: 'billing', count: 2 }]}
        clients={null}
        companies={[{ _id: COMPANY, name: 'Acme' }]}
        withStatus={withStatus}
      />
    </I18nextProvider>,
  );
  return onChange;
}

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

describe('library filters form', () => {
  it('reports every choice with the other filters kept; the speaker applies on Enter', async () => {
    const user = userEvent.setup();
    const onChange = renderForm({ companyId: COMPANY, status: 'failed' });
    await user.selectOptions(screen.getByTestId('tag-filter'), 'billing');
    expect(onChange).toHaveBeenLastCalledWith({ companyId: COMPANY, status: 'failed', tag: 'billing' });
    await user.type(screen.getByTestId('speaker-filter'), 'Ann Lee');
    expect(onChange).toHaveBeenCalledTimes(1);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ companyId: COMPANY, status: 'failed', speaker: 'Ann Lee' });
    await user.click(screen.getByTestId('clear-filters'));
    expect(onChange).toHaveBeenLastCalledWith({ companyId: COMPANY });
  });

  it('another company starts the tag and client over; no status filter where it does not apply', async () => {
    const user = userEvent.setup();
    const onChange = renderForm({ tag: 'billing', clientId: 'b0000000-0000-4000-8000-000000000001' }, false);
    expect(screen.queryByTestId('status-filter')).toBeNull();
    expect(screen.queryByTestId('client-filter')).toBeNull();
    await user.selectOptions(screen.getByTestId('company-filter'), 'Acme');
    expect(onChange).toHaveBeenLastCalledWith({ companyId: COMPANY, clientId: undefined, tag: undefined });
  });

  it('has every English text, non-empty and with the same placeholders, in every language', () => {
    const english = leaves(catalogue.messages.en as unknown as Tree);
    for (const [code, messages] of Object.entries(catalogue.messages)) {
      const theirs = new Map(leaves(messages as unknown as Tree));
      expect([code, theirs.size]).toEqual([code, english.length]);
      for (const [key, text] of english) {
        const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
        expect([code, key, Boolean(theirs.get(key)?.trim()), placeholders(theirs.get(key) ?? '')]).toEqual([
          code,
          key,
          true,
          placeholders(text),
        ]);
      }
    }
  });
});
