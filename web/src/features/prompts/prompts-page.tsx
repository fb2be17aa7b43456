import type { ReactElement } from 'react';
import { PlaceholderPage } from '../../components/placeholder-page';

/** Placeholder: this screen is built in its own issue. */
export default function PromptsPage(): ReactElement {
  return <PlaceholderPage titleKey="pages.prompts" />;
}
