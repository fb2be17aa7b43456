import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { signedIn } from '../../lib/session-slice';
import { useAppDispatch } from '../../lib/store';
import { consumeReturnUrl, HOME_AFTER_SIGNIN } from '../../lib/access';
import { browserStorage } from '../../lib/storage-keys';
import { writeStoredUser, type StoredUser } from '../../lib/stored-user';

/** Keeps the signed-in user and goes to the return URL (used once), else '/'. */
export function useCompleteSignIn(): (user: StoredUser) => void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(
    (user: StoredUser) => {
      const storage = browserStorage();
      writeStoredUser(storage, user);
      dispatch(signedIn(user));
      void navigate(consumeReturnUrl(storage, window.location.origin, HOME_AFTER_SIGNIN), { replace: true });
    },
    [dispatch, navigate],
  );
}
