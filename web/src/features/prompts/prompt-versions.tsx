import { useState, type ReactElement } from 'react';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './i18n';
import { usePromptVersionsQuery } from './prompts-api';
import type { PromptVersion } from './model';
import { formatDateTime } from '../../lib/format-time';

function VersionContent({ version }: { version: PromptVersion }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <div
      className="mt-2 flex flex-col gap-2 rounded-lg bg-gray-50 p-3 text-sm dark:bg-gray-800/60"
      data-testid="version-content"
    >
      <p>
        <span className="font-medium">{t('columns.name')}:</span> {version.name} · {t(`types.${version.type}`)}
      </p>
      {version.description ? <p className="text-gray-600 dark:text-gray-300">{version.description}</p> : null}
      <pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded-md bg-white p-2 font-mono text-xs dark:bg-gray-900">
        {version.prompt}
      </pre>
      {version.expectedFormat.length > 0 ? (
        <ul className="list-inside list-disc text-xs">
          {version.expectedFormat.map((field) => (
            <li key={field.name}>
              <code>{field.name}</code> ({t(`format.types.${field.type}`)}
              {field.range ? ` ${field.range}` : ''}
              {field.options ? `: ${field.options.join(', ')}` : ''}) — {field.description}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Every version of a prompt, newest first; an older one can be read as it was. */
export function PromptVersions({ promptId, language }: { promptId: string; language: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const versions = usePromptVersionsQuery(promptId);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <section aria-labelledby="prompt-versions" className="border-t border-gray-200 pt-4 dark:border-gray-800">
      <h3 id="prompt-versions" className="mb-2 text-sm font-semibold">
        {t('versions.title')}
      </h3>
      {versions.isLoading ? <p className="text-sm text-gray-500">{t('form.loading')}</p> : null}
      {versions.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {t('versions.failed')}
        </p>
      ) : null}
      <ul className="flex flex-col divide-y divide-gray-100 dark:divide-gray-800" data-testid="prompt-versions">
        {(versions.data?.items ?? []).map((version) => (
          <li key={version.version} className="py-2">
            <div className="flex items-center gap-3 text-sm">
              <span className="font-medium">{t('versions.version', { version: version.version })}</span>
              <time className="text-gray-500 dark:text-gray-400" dateTime={version.createdAt}>
                {formatDateTime(version.createdAt, language)}
              </time>
              <button
                type="button"
                className="ml-auto rounded-lg px-2 py-1 text-xs font-medium text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-brand-900/40"
                aria-expanded={open === version.version}
                onClick={() => setOpen(open === version.version ? null : version.version)}
              >
                {open === version.version ? t('versions.hide') : t('versions.view')}
              </button>
            </div>
            {open === version.version ? <VersionContent version={version} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
