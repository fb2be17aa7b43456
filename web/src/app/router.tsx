// Every route of the console. Pages are loaded lazily so the signed-in shell downloads only what
// it shows (see scripts/bench-bundle.mjs). The signed-out pages (sign-in, sign-up, two-step, reset
// password) are a separate small app (signed-out-app.tsx): their routes here hand the page over to it. The routes are matched with
// `useRoutes` inside a <BrowserRouter>, not a data router (createBrowserRouter): no page uses
// loaders, actions or fetchers, and the data router's code was 16 KB gzip of every first screen.
import { lazy, useContext, useEffect, useMemo, type ComponentType, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '../components/spinner';
import { PublicOnly, RequireAuth } from '../features/auth/guards';
import { brandingApi } from '../features/branding/branding-api';
import { useAppSelector } from '../lib/store';
import { subdomainOf } from '../lib/subdomain';
import { HandOverContext } from './hand-over';
import { setNavigator } from '../lib/navigation';
import { Root } from './root';
import { PageTitleKey, type RouteHandle } from './title';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

function named<M, K extends keyof M>(
  loader: () => Promise<M>,
  name: K,
): Loader<M[K] extends ComponentType<infer P> ? P : never> {
  return () => loader().then((module) => ({ default: module[name] as ComponentType<never> })) as never;
}

/** A signed-out page: the signed-out app shows it, told why the session ended (the sign-in page says so). */
function SignedOutPage(): ReactElement {
  const { t } = useTranslation();
  const handOver = useContext(HandOverContext);
  const notice = useAppSelector((state) => state.session.notice);
  const subdomain = useMemo(() => subdomainOf(window.location.hostname), []);
  const companyConfig = useAppSelector((state) =>
    subdomain ? brandingApi.endpoints.getCompanyConfig.select(subdomain)(state).data : undefined,
  );
  useEffect(() => handOver({ notice, companyConfig }), [handOver, notice, companyConfig]);
  return <PageSpinner label={t('common.loading')} />;
}

const statusPages = () => import('../features/status/status-pages');
const NotFoundPage = lazy(named(statusPages, 'NotFoundPage'));
const ServerErrorPage = lazy(named(statusPages, 'ServerErrorPage'));
const UnavailablePage = lazy(named(statusPages, 'UnavailablePage'));
const MaintenancePage = lazy(named(statusPages, 'MaintenancePage'));
const ComingSoonPage = lazy(named(statusPages, 'ComingSoonPage'));
const SuccessPage = lazy(named(statusPages, 'SuccessPage'));

const AppLayout = lazy(() => import('../features/layout/app-layout'));
const ChatPage = lazy(() => import('../features/chat/chat-page'));
const TranscriptsPage = lazy(() => import('../features/library/transcripts-page'));
const TranscriptViewPage = lazy(() => import('../features/transcript-editor/transcript-view-page'));
const TranscriptAnalysisPage = lazy(() => import('../features/analysis/transcript-analysis-page'));
const CompaniesPage = lazy(() => import('../features/companies/companies-page'));
const DataPoliciesPage = lazy(() => import('../features/companies/data-policies-page'));
const FeaturesPage = lazy(() => import('../features/feature-catalogue/features-page'));
const PromptsPage = lazy(() => import('../features/prompts/prompts-page'));
const PricingPage = lazy(() => import('../features/pricing/pricing-page'));
const UsagePage = lazy(() => import('../features/credits/usage-page'));
const InvoicePage = lazy(() => import('../features/credits/invoice-page'));
const AiConfigPage = lazy(() => import('../features/ai-config/ai-config-page'));
const B2cUsersPage = lazy(() => import('../features/b2c-users/b2c-users-page'));
const AuditLogsPage = lazy(() => import('../features/audit-logs/audit-logs-page'));
const EmailTemplatesPage = lazy(() => import('../features/email-templates/email-templates-page'));
const WebhooksPage = lazy(() => import('../features/webhooks/webhooks-page'));
const IdentityPage = lazy(() => import('../features/identity/identity-page'));
const CustomGptsPage = lazy(() => import('../features/custom-gpts/custom-gpts-page'));
const CustomGptCreatePage = lazy(() => import('../features/custom-gpts/custom-gpt-create-page'));
const CustomGptEditPage = lazy(() => import('../features/custom-gpts/custom-gpt-edit-page'));
const UsersPage = lazy(() => import('../features/users/users-page'));
const ClientsPage = lazy(() => import('../features/clients/clients-page'));
const ClientProfilePage = lazy(() => import('../features/clients/client-profile-page'));
const SearchPage = lazy(() => import('../features/search/search-page'));
const TagsPage = lazy(() => import('../features/tags/tags-page'));
const ProfilePage = lazy(() => import('../features/profile/profile-page'));
const SupportPage = lazy(() => import('../features/support/support-page'));
const AnalyticsPage = lazy(() => import('../features/dashboards/analytics-page'));
const CrmPage = lazy(() => import('../features/dashboards/crm-page'));
const SaasPage = lazy(() => import('../features/dashboards/saas-page'));
const TaskListPage = lazy(() => import('../features/tasks/task-list-page'));
const TaskKanbanPage = lazy(() => import('../features/tasks/task-kanban-page'));
const CalendarPage = lazy(() => import('../features/calendar/calendar-page'));
const InboxPage = lazy(() => import('../features/inbox/inbox-page'));
const InboxDetailsPage = lazy(() => import('../features/inbox/inbox-details-page'));

function route(path: string, title: string, element: ReactElement): RouteObject {
  return { path, element, handle: { title } };
}

const AI_FEATURES: Array<[path: string, title: string]> = [
  ['forest-ai', 'menu.forestAi'],
  ['data-bridge', 'menu.dataBridge'],
  ['helpdesk-ai', 'menu.helpdeskAi'],
  ['financial-analyst', 'menu.financialAnalyst'],
  ['law-module', 'menu.lawModule'],
];

// Demo dashboards with no meaning for a call-analysis console (docs/features.md, "Dashboards in the console"): coming soon.
const DASHBOARDS: Array<[path: string, title: string]> = [
  ['ecommerce', 'pages.ecommerce'],
  ['marketing', 'pages.marketing'],
  ['stocks', 'pages.stocks'],
];

// The template's form demos: no data of Earshot's to show (docs/features.md, "Dashboards in the console").
const GENERAL: Array<[path: string, title: string]> = [
  ['form-elements', 'pages.formElements'],
  ['form-layout', 'pages.formLayout'],
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          route('/signin', 'pages.signIn', <SignedOutPage />),
          route('/signup', 'pages.signUp', <SignedOutPage />),
        ],
      },
      route('/two-step-verification', 'pages.twoStep', <SignedOutPage />),
      route('/reset-password', 'pages.resetPassword', <SignedOutPage />),
      route('/success', 'pages.success', <SuccessPage />),
      route('/error-404', 'pages.notFound', <NotFoundPage />),
      route('/error-500', 'pages.serverError', <ServerErrorPage />),
      route('/error-503', 'pages.unavailable', <UnavailablePage />),
      route('/maintenance', 'pages.maintenance', <MaintenancePage />),
      route('/coming-soon', 'pages.comingSoon', <ComingSoonPage />),
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <ChatPage />, handle: { title: 'pages.chat' } },
              route('/chat', 'pages.chat', <ChatPage />),
              route('/transcripts', 'pages.transcripts', <TranscriptsPage />),
              route('/transcripts/:id', 'pages.transcript', <TranscriptViewPage />),
              route('/transcripts/:id/analysis', 'pages.transcriptAnalysis', <TranscriptAnalysisPage />),
              route('/companies', 'pages.companies', <CompaniesPage />),
              route('/features', 'pages.features', <FeaturesPage />),
              route('/prompts', 'pages.prompts', <PromptsPage />),
              route('/pricing', 'pages.pricing', <PricingPage />),
              route('/usage', 'pages.usage', <UsagePage />),
              route('/invoice', 'pages.invoice', <InvoicePage />),
              route('/data-policies', 'pages.dataPolicies', <DataPoliciesPage />),
              route('/ai-config', 'pages.aiConfig', <AiConfigPage />),
              route('/b2c-users', 'pages.b2cUsers', <B2cUsersPage />),
              route('/audit-logs', 'pages.auditLogs', <AuditLogsPage />),
              route('/email-templates', 'pages.emailTemplates', <EmailTemplatesPage />),
              route('/webhooks', 'pages.webhooks', <WebhooksPage />),
              route('/identity', 'pages.identity', <IdentityPage />),
              route('/custom-gpts', 'pages.customGpts', <CustomGptsPage />),
              route('/custom-gpts/create', 'pages.customGptCreate', <CustomGptCreatePage />),
              route('/custom-gpts/:id/edit', 'pages.customGptEdit', <CustomGptEditPage />),
              route('/users', 'pages.users', <UsersPage />),
              route('/clients', 'pages.clients', <ClientsPage />),
              route('/client/:clientId', 'pages.client', <ClientProfilePage />),
              route('/analytics', 'pages.analytics', <AnalyticsPage />),
              route('/crm', 'pages.crm', <CrmPage />),
              route('/saas', 'pages.saas', <SaasPage />),
              ...AI_FEATURES.map(([path, title]) => route(`/ai-features/${path}`, title, <ComingSoonPage embedded />)),
              // The demo dashboards and form pages show no data of a call: they say so (coming soon).
              ...[...DASHBOARDS, ...GENERAL].map(([path, title]) =>
                route(`/${path}`, title, <ComingSoonPage embedded />),
              ),
              route('/task-list', 'pages.taskList', <TaskListPage />),
              route('/task-kanban', 'pages.taskKanban', <TaskKanbanPage />),
              route('/search', 'pages.search', <SearchPage />),
              route('/tags', 'pages.tags', <TagsPage />),
              route('/profile', 'pages.profile', <ProfilePage />),
              route('/support', 'pages.support', <SupportPage />),
              route('/calendar', 'pages.calendar', <CalendarPage />),
              route('/inbox', 'pages.inbox', <InboxPage />),
              route('/inbox-details', 'pages.inboxDetails', <InboxDetailsPage />),
            ],
          },
        ],
      },
      route('*', 'pages.notFound', <NotFoundPage />),
    ],
  },
];

/** The i18n key naming the page: the deepest matched route's `handle.title`. */
function titleKey(pathname: string): string | null {
  const matches = matchRoutes(routes, pathname) ?? [];
  const keys = matches.map((match) => (match.route.handle as RouteHandle | undefined)?.title);
  return [...keys].reverse().find(Boolean) ?? null;
}

/** The app's pages; inside a <BrowserRouter>. Code outside React (the base query) navigates with it. */
export function AppRoutes(): ReactElement | null {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => setNavigator((path) => void navigate(path, { replace: true })), [navigate]);
  const key = useMemo(() => titleKey(pathname), [pathname]);
  return <PageTitleKey.Provider value={key}>{useRoutes(routes)}</PageTitleKey.Provider>;
}
