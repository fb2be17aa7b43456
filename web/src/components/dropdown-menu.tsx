// An accessible menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown open it on the
// first item, arrows/Home/End move, Escape closes and returns focus, Tab or a click outside closes.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type CSSProperties,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

export interface MenuEntry {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  /** A link entry. */
  to?: string;
  /** An action entry. */
  onSelect?: () => void;
  /** For choice entries (menuitemradio), e.g. the current language. */
  checked?: boolean;
  lang?: string;
  testId?: string;
}

export type MenuLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  ref?: Ref<HTMLAnchorElement>;
};

/**
 * Draws a link entry. The signed-in app gives react-router's Link (app/app.tsx); the signed-out
 * pages, whose language menu has no links, keep this plain one and so do not download the router.
 */
export const MenuLinkContext = createContext<ComponentType<MenuLinkProps>>(({ to, ...anchor }) => (
  <a href={to} {...anchor} />
));

/**
 * Set by a container that scrolls (the data table's region): inside it a menu is placed on the
 * window (position: fixed) rather than in the container, which cut off the last rows' menus or
 * made them scroll, and placed again when anything else scrolls, so it moves with its button.
 */
export const FloatingMenuContext = createContext(false);

const GAP = 8;

/** Below the button, or above it when there is more room there; as tall as that room allows. */
function floatingPlace(button: DOMRect, menuHeight: number, align: 'left' | 'right'): CSSProperties {
  const { clientWidth, clientHeight } = document.documentElement;
  const below = clientHeight - button.bottom - GAP;
  const above = button.top - GAP;
  const side = align === 'right' ? { right: clientWidth - button.right } : { left: button.left };
  return menuHeight <= below || below >= above
    ? { position: 'fixed', top: button.bottom + GAP, maxHeight: below, ...side }
    : { position: 'fixed', bottom: clientHeight - button.top + GAP, maxHeight: above, ...side };
}

interface DropdownMenuProps {
  /** Accessible name of the menu (and of the button, unless its content names it). */
  label: string;
  /** The button's own content holds its accessible name (text, possibly sr-only). */
  buttonNamedByContent?: boolean;
  button: ReactNode;
  entries: MenuEntry[];
  header?: ReactNode;
  align?: 'left' | 'right';
  buttonClassName?: string;
  testId?: string;
}

const itemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none dark:text-gray-200 dark:hover:bg-gray-800 dark:focus:bg-gray-800';

export function DropdownMenu({
  label,
  buttonNamedByContent = false,
  button,
  entries,
  header,
  align = 'right',
  buttonClassName = '',
  testId,
}: DropdownMenuProps): ReactElement {
  const Link = useContext(MenuLinkContext);
  const floating = useContext(FloatingMenuContext);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<CSSProperties>();
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<Array<HTMLElement | null>>([]);

  const focusItem = useCallback(
    (index: number) => {
      const items = itemRefs.current.filter((item): item is HTMLElement => item !== null);
      if (items.length === 0) return;
      // A floating menu is already in view; scrolling to an item would close it.
      items[(index + items.length) % items.length]?.focus({ preventScroll: floating });
    },
    [floating],
  );

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const openAt = useCallback(
    (index: number) => {
      setOpen(true);
      requestAnimationFrame(() => focusItem(index));
    },
    [focusItem],
  );

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  // Placed before the first paint, so the menu never shows where it would be cut off, and again
  // whenever anything else scrolls or the window resizes, so it follows its button. (Closing
  // instead lost the menu to the scroll that brought its button into view, which the browser
  // reports after the click.)
  useLayoutEffect(() => {
    if (!open || !floating) return undefined;
    const place = (event?: Event) => {
      const button = buttonRef.current;
      const menu = menuRef.current;
      // The window itself (a resize) is no Node.
      const target = event?.target instanceof Node ? event.target : null;
      if (!button || !menu || menu.contains(target)) return;
      setPlace(floatingPlace(button.getBoundingClientRect(), menu.scrollHeight, align));
    };
    place();
    window.addEventListener('scroll', place, true);
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, true);
      window.removeEventListener('resize', place);
    };
  }, [open, floating, align]);

  const onButtonKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(-1);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemRefs.current.filter((item): item is HTMLElement => item !== null);
    const current = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      focusItem(moves[event.key] ?? 0);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  const choose = (entry: MenuEntry) => {
    close(true);
    entry.onSelect?.();
  };

  const hasChoices = entries.some((entry) => entry.checked !== undefined);

  return (
    <div className="relative" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        aria-label={buttonNamedByContent ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
        onKeyDown={onButtonKey}
        className={buttonClassName}
        data-testid={testId}
      >
        {button}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          ref={menuRef}
          style={floating ? place : undefined}
          className={`z-40 min-w-56 rounded-xl border border-gray-200 bg-white p-2 shadow-lg dark:border-gray-700 dark:bg-gray-900 ${floating ? 'fixed overflow-y-auto' : `absolute mt-2 ${align === 'right' ? 'right-0' : 'left-0'}`}`}
        >
          {header}
          {entries.map((entry, index) => {
            const role = hasChoices && entry.checked !== undefined ? 'menuitemradio' : 'menuitem';
            const common = {
              role,
              tabIndex: -1,
              lang: entry.lang,
              'aria-checked': role === 'menuitemradio' ? Boolean(entry.checked) : undefined,
              'data-testid': entry.testId,
              className: `${itemClass} ${entry.checked ? 'font-semibold text-brand-700 dark:text-brand-300' : ''}`,
            };
            const content = (
              <>
                {entry.icon}
                <span className="flex-1">{entry.label}</span>
                {entry.checked && <span aria-hidden="true">✓</span>}
              </>
            );
            return entry.to ? (
              <Link
                key={entry.key}
                to={entry.to}
                ref={(node) => void (itemRefs.current[index] = node)}
                onClick={() => choose(entry)}
                {...common}
              >
                {content}
              </Link>
            ) : (
              <button
                key={entry.key}
                type="button"
                ref={(node) => void (itemRefs.current[index] = node)}
                onClick={() => choose(entry)}
                {...common}
              >
                {content}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
