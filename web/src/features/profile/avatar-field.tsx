// One's own picture, sent as soon as it is chosen (`POST /users/profile/avatar`). The server judges
// the file by its bytes, so its refusal is shown in its own words; only the size is checked here too.
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import type { UserDetailDto } from '@earshot/contracts';
import { AVATAR_MAX_BYTES } from '@earshot/contracts/constants';
import { buttonClass } from '../../components/form-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { ownImage } from '../../lib/own-image';
import { initialsOf } from '../../lib/stored-user';
import { catalogue } from './i18n';
import { useRemoveAvatarMutation, useUploadAvatarMutation } from './profile-api';
import type { Outcome } from './section-card';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/x-icon';

// Full-size buttons (not the small row ones): they are tapped on phones.
const UPLOAD_CLASS = `${buttonClass.secondary} disabled:opacity-60`;
const REMOVE_CLASS =
  'rounded-lg border border-red-300 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950';
const NOTE_TONES = { error: 'text-red-700 dark:text-red-300', success: 'text-green-800 dark:text-green-300' } as const;

const statusOf = (error: unknown) => (error && typeof error === 'object' && 'status' in error ? error.status : null);

export function AvatarField({ user }: { user: UserDetailDto }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [upload, uploading] = useUploadAvatarMutation();
  const [remove, removing] = useRemoveAvatarMutation();
  const [note, setNote] = useState<Outcome>(null);
  const input = useRef<HTMLInputElement>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const busy = uploading.isLoading || removing.isLoading;
  const [refocus, setRefocus] = useState(false);

  // The Remove button leaves with the picture: the keyboard goes on from Upload, once it is enabled again.
  useEffect(() => {
    if (!refocus || busy) return;
    uploadButton.current?.focus();
    setRefocus(false);
  }, [refocus, busy]);

  // A proxy's 413 may come without the gateway's body: it still means the file was too large.
  const refused = (error: unknown) =>
    setNote({
      tone: 'error',
      text: errorMessage(error) ?? t(statusOf(error) === 413 ? 'profile.avatar.tooLarge' : 'profile.failed'),
    });

  const send = async (file: File | undefined) => {
    if (!file) return;
    // The server's limit too: a large photo is not sent only to be refused.
    if (file.size > AVATAR_MAX_BYTES) {
      setNote({ tone: 'error', text: t('profile.avatar.tooLarge') });
      return;
    }
    setNote(null);
    try {
      await upload(file).unwrap();
      setNote({ tone: 'success', text: t('profile.avatar.uploaded') });
    } catch (error) {
      refused(error);
    }
  };

  const discard = async () => {
    setNote(null);
    try {
      await remove().unwrap();
      setNote({ tone: 'success', text: t('profile.avatar.removed') });
      setRefocus(true);
    } catch (error) {
      refused(error);
    }
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="flex items-center gap-4" data-testid="avatar-field">
      <div aria-busy={busy} className={`size-16 shrink-0 ${busy ? 'animate-pulse opacity-60' : ''}`}>
        {ownImage(user.avatar) ? (
          <img
            src={ownImage(user.avatar)!}
            alt={t('profile.avatar.current')}
            className="size-16 rounded-full object-cover"
            data-testid="avatar-image"
          />
        ) : (
          <span
            aria-hidden="true"
            className="inline-flex size-16 items-center justify-center rounded-full bg-brand-100 text-xl font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100"
            data-testid="avatar-initials"
          >
            {initialsOf(user)}
          </span>
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-2">
        <p id={`${id}-label`} className="text-sm font-medium text-gray-700 dark:text-gray-300">
          {t('profile.avatar.label')}
        </p>
        <div className="flex flex-wrap gap-2">
          <button
            ref={uploadButton}
            type="button"
            className={UPLOAD_CLASS}
            disabled={busy}
            aria-describedby={`${id}-note`}
            onClick={() => input.current?.click()}
          >
            {uploading.isLoading ? t('profile.avatar.uploading') : t('profile.avatar.upload')}
          </button>
          {user.avatar && (
            <button type="button" className={REMOVE_CLASS} disabled={busy} onClick={() => void discard()}>
              {removing.isLoading ? t('profile.avatar.removing') : t('profile.avatar.remove')}
            </button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className="hidden"
          data-testid="avatar-input"
          // Emptied after each choice, so that choosing the same file again (after a refusal) is a change too.
          onChange={(event) => {
            void send(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        {/* A new element per note: screen readers announce an alert or status as it appears. */}
        <p
          key={note?.tone ?? 'hint'}
          id={`${id}-note`}
          role={note ? (note.tone === 'error' ? 'alert' : 'status') : undefined}
          className={`text-xs ${note ? NOTE_TONES[note.tone] : 'text-gray-600 dark:text-gray-400'}`}
          data-testid="avatar-note"
        >
          {note?.text ?? t('profile.avatar.hint')}
        </p>
      </div>
    </div>
  );
}
