import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { useFeatureTranslation } from '../../i18n/feature';
import { catalogue } from './analysis-i18n';

/** From the viewer to the recording's analysis page. */
export function AnalysisLink({ fileId }: { fileId: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <Link
      to={`/transcripts/${encodeURIComponent(fileId)}/analysis`}
      className="inline-flex items-center gap-1 rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      data-testid="analysis-link"
    >
      {t('analysisLink')}
    </Link>
  );
}
