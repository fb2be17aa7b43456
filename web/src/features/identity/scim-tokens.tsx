// The SCIM part of "Sign-in and provisioning": the base URL an identity provider is given, the
// company's tokens (created and shown once, revoked, with their last use).
import { useState, type FormEvent, type ReactElement } from 'react';
import type { ScimTokenDto } from '@earshot/contracts';
import { SCIM_BASE_PATH } from '@earshot/contracts/constants';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DialogButtons, FormDialog } from '../../components/form-dialog';
import { buttonClass } from '../../components/form-parts';
import { ShownOnceDialog } from '../../components/shown-once-dialog';
import { TextField } from '../../components/text-field';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useCreateScimTokenMutation, useRevokeScimTokenMutation, useScimTokensQuery } from './scim-api';
import { catalogue } from './i18n';

const NONE: ScimTokenDto[] = [];

export function ScimTokens({
  companyId,
  notify,
}: {
  companyId: string;
  notify: (ok: boolean, title: string, detail?: string | null) => void;
}): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const list = useScimTokensQuery(companyId);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ScimTokenDto | null>(null);
  const [revoke, revokeState] = useRevokeScimTokenMutation();
  const when = (iso: string | null) =>
    iso
      ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
      : t('identity.scim.never');

  const columns: Array<DataColumn<ScimTokenDto>> = [
    { id: 'name', header: t('identity.scim.name'), cell: (token) => token.name },
    { id: 'created', header: t('identity.scim.created'), cell: (token) => when(token.createdAt) },
    {
      id: 'lastUsed',
      header: t('identity.scim.lastUsed'),
      cell: (token) => <span data-testid="scim-token-last-used">{when(token.lastUsedAt)}</span>,
    },
  ];

  return (
    <section className="mb-10" aria-labelledby="scim-title">
      <h2 id="scim-title" className="mb-2 text-lg font-semibold text-gray-900 dark:text-white">
        {t('identity.scim.title')}
      </h2>
      <p className="mb-4 max-w-3xl text-sm text-gray-600 dark:text-gray-400">{t('identity.scim.explain')}</p>
      <BaseUrl />
      <div className="mt-6 mb-3 flex items-center justify-between gap-3">
        <h3 className="text-base font-medium text-gray-900 dark:text-white">{t('identity.scim.tokens')}</h3>
        <button
          type="button"
          className={buttonClass.primary}
          onClick={() => setCreating(true)}
          data-testid="scim-token-create"
        >
          {t('identity.scim.create')}
        </button>
      </div>
      <DataTable
        label={t('identity.scim.tokens')}
        columns={columns}
        rows={list.data ?? NONE}
        rowId={(token) => token._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('identity.scim.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('identity.scim.empty')}
        testId="scim-tokens-table"
        rowActions={(token) => (
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => setRevoking(token)}
            data-testid="scim-token-revoke"
          >
            {t('identity.scim.revoke')}
          </button>
        )}
      />
      {creating ? (
        <CreateTokenDialog
          companyId={companyId}
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setShown(token);
          }}
        />
      ) : null}
      <ShownOnceDialog
        value={shown}
        title={t('identity.scim.secret.title')}
        explain={t('identity.scim.secret.explain')}
        labels={{
          copy: t('identity.scim.copy'),
          copied: t('identity.scim.copied'),
          done: t('identity.scim.secret.done'),
        }}
        testId="scim-token-secret"
        valueTestId="scim-token-value"
        onDone={() => setShown(null)}
      />
      <ConfirmDialog
        open={revoking !== null}
        message={t('identity.scim.revokeConfirm', { name: revoking?.name ?? '' })}
        confirmLabel={t('identity.scim.revoke')}
        cancelLabel={t('identity.scim.cancel')}
        busy={revokeState.isLoading}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking)
            void revoke({ companyId, tokenId: revoking._id })
              .unwrap()
              .then(
                () => notify(true, t('identity.scim.revoked')),
                (error: unknown) => notify(false, t('identity.scim.failed'), errorMessage(error)),
              );
          setRevoking(null);
        }}
      />
    </section>
  );
}

/** The address to paste into the identity provider: this console's own, so it is right wherever it runs. */
function BaseUrl(): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [copied, setCopied] = useState(false);
  const url = `${window.location.origin}${SCIM_BASE_PATH}`;
  return (
    <div>
      <span className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {t('identity.scim.baseUrl')}
      </span>
      <div className="flex max-w-2xl items-center gap-2">
        <code
          className="flex-1 rounded-lg bg-gray-100 px-3 py-2 font-mono text-sm break-all select-all dark:bg-gray-800 dark:text-gray-100"
          data-testid="scim-base-url"
        >
          {url}
        </code>
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() =>
            void navigator.clipboard.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          aria-live="polite"
        >
          {copied ? t('identity.scim.copied') : t('identity.scim.copy')}
        </button>
      </div>
    </div>
  );
}

function CreateTokenDialog({
  companyId,
  onClose,
  onCreated,
}: {
  companyId: string;
  onClose: () => void;
  onCreated: (token: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [name, setName] = useState('');
  const [create, state] = useCreateScimTokenMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create({ companyId, name })
      .unwrap()
      .then(
        (created) => onCreated(created.token),
        (failure: unknown) => setError(errorMessage(failure) ?? t('identity.scim.failed')),
      );
  };
  return (
    <FormDialog open title={t('identity.scim.create')} onClose={onClose} testId="scim-token-form">
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('identity.scim.name')}
          hint={t('identity.scim.nameHint')}
          value={name}
          maxLength={100}
          required
          onChange={(event) => setName(event.target.value)}
          data-testid="scim-token-name"
        />
        {error ? (
          <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        ) : null}
        <DialogButtons
          cancelLabel={t('identity.scim.cancel')}
          submitLabel={t('identity.scim.create')}
          busy={state.isLoading}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
