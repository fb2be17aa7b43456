// A recording's tags in its list row: each tag removable, "+ Tag" opens a field that suggests the
// company's tags and adds on Enter. The whole set is sent (PUT /files/{id}/tags); the server
// normalises (trim, lower case, no duplicates), and so does this field, so what shows is what is kept.
import { TAG_LENGTH_MAX, TAGS_PER_FILE_MAX } from '@earshot/contracts/constants';
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import { useRedactedNotice } from '../../components/redacted-notice';
import { errorMessage } from '../../lib/api';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './library-i18n';
import { useSetFileTagsMutation } from './list-api';

export function normaliseTag(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/\p{Cc}/gu, '');
}

export function TagEditor({
  fileId,
  fileName,
  tags,
  suggestions,
  onError,
  onRedacted,
  onTagClick,
}: {
  fileId: string;
  fileName: string;
  tags: string[];
  suggestions: string[];
  onError: (message: string | null) => void;
  /** Told when the company's redaction hid something in the tags saved: the notice to show. */
  onRedacted: (notice: string) => void;
  /** Filters the list by the tag. */
  onTagClick: (tag: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [adding, setAdding] = useState(false);
  const [setTags, { isLoading }] = useSetFileTagsMutation();
  const listId = useId();
  const redactedNotice = useRedactedNotice();
  const save = async (next: string[]) => {
    try {
      const notice = redactedNotice((await setTags({ fileId, tags: next }).unwrap()).redacted);
      if (notice) onRedacted(notice);
      return true;
    } catch (error) {
      onError(errorMessage(error));
      return false;
    }
  };
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const tag = normaliseTag(String(new FormData(event.currentTarget).get('tag') ?? ''));
    if (!tag || tags.includes(tag)) {
      setAdding(false);
      return;
    }
    if (await save([...tags, tag])) setAdding(false);
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setAdding(false);
  };
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid="file-tags" aria-busy={isLoading}>
      {tags.map((tag) => (
        <span
          key={tag}
          className="inline-flex max-w-full items-center rounded-full bg-brand-50 text-xs text-brand-800 dark:bg-brand-900/40 dark:text-brand-100"
          data-testid="file-tag"
          data-tag={tag}
        >
          <button
            type="button"
            className="max-w-36 truncate py-0.5 pr-1 pl-2 hover:underline"
            onClick={() => onTagClick(tag)}
            title={t('library.tags.filterBy', { tag })}
          >
            {tag}
          </button>
          <button
            type="button"
            className="rounded-full px-1.5 py-0.5 hover:bg-brand-100 disabled:opacity-50 dark:hover:bg-brand-800"
            disabled={isLoading}
            onClick={() => void save(tags.filter((other) => other !== tag))}
            aria-label={t('library.tags.remove', { tag, name: fileName })}
          >
            ×
          </button>
        </span>
      ))}
      {adding ? (
        <form onSubmit={(event) => void add(event)} className="inline-flex">
          <input
            name="tag"
            autoFocus
            list={listId}
            maxLength={TAG_LENGTH_MAX}
            onKeyDown={onKey}
            onBlur={(event) => {
              if (!event.currentTarget.value.trim()) setAdding(false);
            }}
            aria-label={t('library.tags.new', { name: fileName })}
            placeholder={t('library.tags.placeholder')}
            disabled={isLoading}
            className="w-28 rounded-full border border-gray-300 bg-white px-2 py-0.5 text-xs text-gray-900 focus:border-brand-500 focus:outline-none dark:border-gray-700 dark:bg-gray-900 dark:text-white"
            data-testid="tag-input"
          />
          <datalist id={listId}>
            {suggestions
              .filter((name) => !tags.includes(name))
              .map((name) => (
                <option key={name} value={name} />
              ))}
          </datalist>
        </form>
      ) : tags.length < TAGS_PER_FILE_MAX ? (
        <button
          type="button"
          onClick={() => setAdding(true)}
          className="rounded-full border border-dashed border-gray-300 px-2 py-0.5 text-xs text-gray-600 hover:border-brand-500 hover:text-brand-700 dark:border-gray-700 dark:text-gray-400 dark:hover:text-brand-300"
          aria-label={t('library.tags.add', { name: fileName })}
          data-testid="add-tag"
        >
          + {t('library.tags.tag')}
        </button>
      ) : null}
    </div>
  );
}
