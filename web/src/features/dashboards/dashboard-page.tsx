import type { ReactElement } from 'react';
import { PlaceholderPage } from '../../components/placeholder-page';

/** Dashboards (ecommerce, analytics, marketing, CRM, stocks, SaaS): their behaviour is not specified yet. */
export default function DashboardPage({ titleKey }: { titleKey: string }): ReactElement {
  return <PlaceholderPage titleKey={titleKey} />;
}
