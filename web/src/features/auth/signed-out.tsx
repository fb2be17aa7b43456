// What the signed-out pages (sign-in, sign-up, two-step, reset password) get from the small app
// that shows them (signed-out-app.tsx) instead of react-router and the Redux store, which only the
// signed-in app downloads.
import { createContext, useContext, useMemo, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import type { StoredUser } from '../../lib/stored-user';

export interface SignedOut {
  pathname: string;
  search: string;
  /** Goes to `to`: a signed-out page here, any other page in the signed-in app. */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** Why the last session ended (shown on the sign-in page), e.g. 'Failed to refresh token'. */
  notice: string | null;
  clearNotice: () => void;
  /** Keeps the signed-in user and opens the app at the return URL (used once), else '/'. */
  signedIn: (user: StoredUser) => void;
}

export const SignedOutContext = createContext<SignedOut | null>(null);

export function useSignedOut(): SignedOut {
  const context = useContext(SignedOutContext);
  if (!context) throw new Error('A signed-out page renders inside <SignedOutApp>');
  return context;
}

export function useSearchParams(): URLSearchParams {
  const { search } = useSignedOut();
  return useMemo(() => new URLSearchParams(search), [search]);
}

/** A link between the signed-out pages: a plain click stays in the page, others open as links do. */
export function Link({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}): ReactElement {
  const { navigate } = useSignedOut();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} className={className} onClick={follow}>
      {children}
    </a>
  );
}
