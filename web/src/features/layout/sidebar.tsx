import { useEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../lib/store';
import { Icon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { roleOf } from '../../lib/stored-user';
import { useEnabledFeatures } from './enabled-features';
import { visibleMenu } from './menu';
import { SidebarItem } from './sidebar-item';

interface SidebarProps {
  /** Desktop: expanded (290 px) or collapsed (90 px). */
  expanded: boolean;
  /** Below the drawer breakpoint the sidebar is an off-canvas drawer. */
  isDrawer: boolean;
  drawerOpen: boolean;
  onCloseDrawer: () => void;
}

export const SIDEBAR_ID = 'app-sidebar';

export function Sidebar({ expanded, isDrawer, drawerOpen, onCloseDrawer }: SidebarProps): ReactElement {
  const { t } = useTranslation();
  const user = useAppSelector((state) => state.session.user);
  const sections = visibleMenu(roleOf(user), undefined, useEnabledFeatures(user));
  // A collapsed sidebar opens while the pointer is over it (or keyboard focus is inside it).
  const [hovered, setHovered] = useState(false);
  const asideRef = useRef<HTMLDivElement>(null);
  const wide = isDrawer || expanded || hovered;

  useEffect(() => {
    if (!isDrawer || !drawerOpen) return undefined;
    asideRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCloseDrawer();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isDrawer, drawerOpen, onCloseDrawer]);

  const hidden = isDrawer && !drawerOpen;
  return (
    <>
      {isDrawer && drawerOpen && (
        <div
          className="fixed inset-0 z-30 bg-gray-900/50"
          aria-hidden="true"
          onClick={onCloseDrawer}
          data-testid="drawer-backdrop"
        />
      )}
      <div
        id={SIDEBAR_ID}
        ref={asideRef}
        inert={hidden}
        // As a drawer it is a modal dialog: the page behind it is inert until it closes.
        role={isDrawer && drawerOpen ? 'dialog' : undefined}
        aria-modal={isDrawer && drawerOpen ? true : undefined}
        aria-label={isDrawer && drawerOpen ? t('header.mainNavigation') : undefined}
        data-testid="sidebar"
        data-state={wide ? 'wide' : 'narrow'}
        onMouseEnter={() => !isDrawer && !expanded && setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => !isDrawer && !expanded && setHovered(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHovered(false);
        }}
        className={`fixed inset-y-0 left-0 z-40 flex flex-col border-r border-gray-200 bg-white transition-[width,transform] duration-200 dark:border-gray-800 dark:bg-gray-900 ${
          wide ? 'w-[290px]' : 'w-[90px]'
        } ${hidden ? '-translate-x-full' : 'translate-x-0'} ${hovered && !expanded ? 'shadow-xl' : ''}`}
      >
        <div className={`flex h-16 shrink-0 items-center ${wide ? 'justify-between px-6' : 'justify-center'}`}>
          <Link to="/chat" data-testid="sidebar-logo">
            <Logo compact={!wide} />
          </Link>
          {isDrawer && (
            <button
              type="button"
              onClick={onCloseDrawer}
              aria-label={t('header.closeMenu')}
              className="inline-flex size-10 items-center justify-center rounded-lg text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
            >
              <Icon name="close" />
            </button>
          )}
        </div>
        <nav aria-label={t('header.mainNavigation')} className="flex-1 overflow-y-auto px-4 pb-6">
          {sections.map((section) => (
            <div key={section.key} className="mt-4">
              <h2
                className={`mb-2 px-3 text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400 ${wide ? '' : 'sr-only'}`}
              >
                {t(section.labelKey)}
              </h2>
              <ul className="space-y-1">
                {section.items.map((item) => (
                  <SidebarItem key={item.key} item={item} wide={wide} />
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
    </>
  );
}
