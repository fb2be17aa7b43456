import { useId, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import { Icon } from '../../components/icons';
import type { MenuItem } from './menu';

const rowClass = (active: boolean, wide: boolean) =>
  `group flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium ${wide ? '' : 'justify-center'} ${
    active
      ? 'bg-brand-50 text-brand-800 dark:bg-brand-950 dark:text-brand-200'
      : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'
  }`;

export function SidebarItem({ item, wide }: { item: MenuItem; wide: boolean }): ReactElement {
  const { t } = useTranslation();
  const location = useLocation();
  const submenuId = useId();
  const childActive = item.children?.some((child) => location.pathname.startsWith(child.path)) ?? false;
  const [open, setOpen] = useState(childActive);
  const label = t(item.labelKey);

  if (!item.children) {
    return (
      <li>
        <NavLink
          to={item.path ?? '/'}
          end={item.path === '/chat'}
          // The home page '/' is the main chat too.
          className={({ isActive }) => rowClass(isActive || (item.path === '/chat' && location.pathname === '/'), wide)}
          title={wide ? undefined : label}
          data-testid={`menu-${item.key}`}
        >
          <Icon name={item.icon} className="shrink-0" />
          <span className={wide ? 'truncate' : 'sr-only'}>{label}</span>
        </NavLink>
      </li>
    );
  }

  const expanded = open && wide;
  return (
    <li>
      <button
        type="button"
        className={rowClass(childActive, wide)}
        aria-expanded={expanded}
        aria-controls={submenuId}
        onClick={() => setOpen((value) => !value)}
        title={wide ? undefined : label}
        data-testid={`menu-${item.key}`}
      >
        <Icon name={item.icon} className="shrink-0" />
        <span className={wide ? 'flex-1 truncate text-left' : 'sr-only'}>{label}</span>
        {wide && (
          <Icon name="chevronDown" className={`shrink-0 transition-transform ${expanded ? 'rotate-180' : ''}`} />
        )}
      </button>
      <ul id={submenuId} hidden={!expanded} className="mt-1 space-y-1 pl-11">
        {item.children.map((child) => (
          <li key={child.key}>
            <NavLink
              to={child.path}
              data-testid={`menu-${child.key}`}
              className={({ isActive }) =>
                `block rounded-lg px-3 py-2 text-sm ${isActive ? 'font-medium text-brand-800 dark:text-brand-200' : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800'}`
              }
            >
              {t(child.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
