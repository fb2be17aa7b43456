// Route guards. The rules live in lib/access.ts; these components apply them.
import { useEffect, type ReactElement } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { decideProtectedAccess, rememberReturnUrl, signedInLanding } from '../../lib/access';
import { browserStorage, STORAGE_KEYS } from '../../lib/storage-keys';

/** Pages that need a signed-in user (and, for some paths, a role). */
export function RequireAuth(): ReactElement {
  const location = useLocation();
  const storage = browserStorage();
  const decision = decideProtectedAccess(`${location.pathname}${location.search}${location.hash}`, storage);
  if (decision.kind === 'signin') {
    rememberReturnUrl(storage, decision);
    return <Navigate to="/signin" replace />;
  }
  // The page it lands on explains which page needed which role (layout/forbidden-notice.tsx).
  if (decision.kind === 'redirect')
    return <Navigate to={decision.to} replace state={{ forbidden: decision.forbidden }} />;
  return <Outlet />;
}

/** /signin and /signup: a signed-in user goes to the valid return URL (then cleared), else /chat. */
export function PublicOnly(): ReactElement {
  const storage = browserStorage();
  const landing = signedInLanding(storage, window.location.origin);
  useEffect(() => {
    if (landing) storage.removeItem(STORAGE_KEYS.returnUrl);
  }, [landing, storage]);
  return landing ? <Navigate to={landing} replace /> : <Outlet />;
}
