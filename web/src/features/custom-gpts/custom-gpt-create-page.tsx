import type { ReactElement } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { useFeatureTranslation } from '../../i18n/feature';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { GptForm } from './gpt-form';
import { catalogue } from './i18n';

/** /custom-gpts/create: a new GPT; knowledge files are added on its edit page, where this leads. */
export default function CustomGptCreatePage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const navigate = useNavigate();
  const role = useAppSelector((state) => roleOf(state.session.user));
  return (
    <div>
      <Link
        to="/custom-gpts"
        className="mb-2 inline-block text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        {t('backToList')}
      </Link>
      <PageHeading>{t('pages.customGptCreate')}</PageHeading>
      <p className="mb-6 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('createIntro')}</p>
      <GptForm
        gpt={null}
        platform={role === 'HOST_ADMIN'}
        onSaved={(gpt) =>
          void navigate(`/custom-gpts/${encodeURIComponent(gpt._id)}/edit`, { state: { created: true } })
        }
        onCancel={() => void navigate('/custom-gpts')}
      />
    </div>
  );
}
