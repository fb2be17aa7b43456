import type { ReactElement } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { PageSpinner } from '../../components/spinner';
import { Alert } from '../../components/text-field';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { useCustomGptQuery } from './custom-gpts-api';
import { GptForm } from './gpt-form';
import { catalogue } from './i18n';
import { KnowledgeFiles } from './knowledge-files';
import { canChange } from './model';

/** /custom-gpts/{id}/edit: the GPT's settings and its knowledge files. */
export default function CustomGptEditPage(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const justCreated = (location.state as { created?: boolean } | null)?.created === true;
  const role = useAppSelector((state) => roleOf(state.session.user));
  const gpt = useCustomGptQuery(id);
  const { toasts, show, dismiss } = useToasts();

  const back = (
    <Link
      to="/custom-gpts"
      className="mb-2 inline-block text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
    >
      {t('backToList')}
    </Link>
  );
  if (gpt.isLoading) return <PageSpinner label={t('form.loading')} />;
  if (!gpt.data) {
    return (
      <div>
        {back}
        <PageHeading>{t('pages.customGptEdit')}</PageHeading>
        <Alert>
          {gpt.error && 'status' in gpt.error && gpt.error.status === 404
            ? t('notFound')
            : (errorMessage(gpt.error) ?? t('loadFailed'))}
        </Alert>
      </div>
    );
  }
  const editable = canChange(gpt.data, role);
  return (
    <div className="flex flex-col gap-8">
      <div>
        {back}
        <PageHeading>{gpt.data.name}</PageHeading>
        {justCreated ? (
          <Alert tone="success" testId="gpt-created">
            {t('messages.createdAddFiles')}
          </Alert>
        ) : null}
        {editable ? null : <Alert tone="info">{t('readOnlyNotice')}</Alert>}
      </div>
      {editable ? (
        <GptForm
          key={gpt.data._id}
          gpt={gpt.data}
          platform={gpt.data.scope === 'platform'}
          onSaved={() => show({ kind: 'success', title: t('messages.updated') })}
          onCancel={() => void navigate('/custom-gpts')}
        />
      ) : null}
      <KnowledgeFiles gptId={gpt.data._id} editable={editable} />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('close')} />
    </div>
  );
}
