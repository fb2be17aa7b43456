import { Suspense, useCallback, useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { api } from '../../lib/api';
import { useGetProfileQuery } from '../../lib/session-api';
import { useAppDispatch } from '../../lib/store';
import { CrashBoundary } from '../../components/crash-notice';
import { PageSpinner } from '../../components/spinner';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { ForbiddenNotice } from './forbidden-notice';
import { Header } from './header';
import { Sidebar } from './sidebar';

/**
 * Drawer breakpoint: the spec states both 768 px and 1024 px for the sidebar. We use 1024 px: a
 * 290 px sidebar on a 768–1023 px tablet would take 28–38 % of the width, leaving the transcript
 * table and the chat too narrow, while a drawer costs nothing until opened. 768 px remains the
 * "mobile" breakpoint for the header's overflow menu and the install prompt.
 */
export const DRAWER_QUERY = '(max-width: 1023.98px)';

export default function AppLayout(): ReactElement {
  const { t } = useTranslation();
  const location = useLocation();
  const isDrawer = useMediaQuery(DRAWER_QUERY);
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [expanded, setExpanded] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Refreshes the stored user from the server; a dead session ends through the base query.
  useGetProfileQuery();
  const dispatch = useAppDispatch();
  const refetchAll = useCallback(() => dispatch(api.util.resetApiState()), [dispatch]);

  useEffect(() => setDrawerOpen(false), [location.pathname, isDrawer]);

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    // Back to the toggle once the page is no longer inert.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="sidebar-toggle"]')?.focus());
  }, []);
  const toggle = () => (isDrawer ? setDrawerOpen((open) => !open) : setExpanded((value) => !value));

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-medium text-brand-800 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('header.skipToContent')}
      </a>
      <Sidebar expanded={expanded} isDrawer={isDrawer} drawerOpen={drawerOpen} onCloseDrawer={closeDrawer} />
      <div
        inert={isDrawer && drawerOpen}
        className={`flex min-h-screen flex-col transition-[margin] duration-200 ${isDrawer ? '' : expanded ? 'ml-[290px]' : 'ml-[90px]'}`}
      >
        <Header
          isDrawer={isDrawer}
          isMobile={isMobile}
          sidebarOpen={isDrawer ? drawerOpen : expanded}
          onToggleSidebar={toggle}
        />
        <main id="main" tabIndex={-1} className="flex-1 p-4 focus:outline-none md:p-6">
          <ForbiddenNotice />
          <CrashBoundary resetKey={location.pathname} onRetry={refetchAll}>
            <Suspense fallback={<PageSpinner label={t('common.loading')} />}>
              <Outlet />
            </Suspense>
          </CrashBoundary>
        </main>
      </div>
    </div>
  );
}
