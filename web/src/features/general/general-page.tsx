import type { ReactElement } from 'react';
import { PlaceholderPage } from '../../components/placeholder-page';

/** General pages (calendar, tasks, inbox, invoice, search, tags, forms): not specified yet. */
export default function GeneralPage({ titleKey }: { titleKey: string }): ReactElement {
  return <PlaceholderPage titleKey={titleKey} />;
}
