import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isLanguageCode } from '../../i18n/languages';
import { signedIn } from '../../lib/session-slice';
import { useAppDispatch } from '../../lib/store';
import { consumeReturnUrl, HOME_AFTER_SIGNIN } from '../../lib/access';
import { browserStorage } from '../../lib/storage-keys';
import { writeStoredUser, type StoredUser } from '../../lib/stored-user';

/**
 * Keeps the signed-in user and goes to the return URL (used once), else '/'. The language saved in
 * the person's account follows them to every browser they sign in on; the switcher then changes
 * this browser only.
 */
export function useCompleteSignIn(): (user: StoredUser) => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { i18n } = useTranslation();
  return useCallback(
    (user: StoredUser) => {
      const storage = browserStorage();
      writeStoredUser(storage, user);
      dispatch(signedIn(user));
      if (isLanguageCode(user.language) && user.language !== i18n.resolvedLanguage) void i18n.changeLanguage(user.language);
      void navigate(consumeReturnUrl(storage, window.location.origin, HOME_AFTER_SIGNIN), { replace: true });
    },
    [dispatch, navigate, i18n],
  );
}
