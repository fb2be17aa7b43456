// "Last provisioning changes": what the company's identity provider did through its SCIM tokens,
// from the audit log (the one part of it a company's ADMIN reads).
import type { ReactElement } from 'react';
import type { AuditEntryDto, ScimTokenDto } from '@earshot/contracts';
import { SCIM_ACTOR_PREFIX } from '@earshot/contracts/constants';
import { DataTable, type DataColumn } from '../../components/data-table';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { useProvisioningChangesQuery, useScimTokensQuery } from './scim-api';
import { catalogue } from './i18n';

const NONE: AuditEntryDto[] = [];

type Kind = 'created' | 'updated' | 'deleted' | 'deactivated' | 'other';

/** What happened to the person, in words: a status turned off reads as a deactivation. */
function kindOf(entry: AuditEntryDto): Kind {
  if (entry.type === 'user.created') return 'created';
  if (entry.type === 'user.deleted') return 'deleted';
  if (entry.type !== 'user.updated') return 'other';
  const status = (state: unknown) => (state as { status?: string } | null)?.status;
  return status(entry.after) === 'disabled' && status(entry.before) !== 'disabled' ? 'deactivated' : 'updated';
}

function personOf(entry: AuditEntryDto): string {
  const state = (entry.after ?? entry.before) as { email?: string } | null;
  return state?.email ?? entry.target.id ?? '';
}

export function ProvisioningChanges({ companyId }: { companyId: string }): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue);
  const changes = useProvisioningChangesQuery(companyId, { refetchOnMountOrArgChange: true });
  const tokens = useScimTokensQuery(companyId);
  const tokenName = (entry: AuditEntryDto) => {
    // Until the tokens are known, a name cannot be told from a revoked token: say nothing yet.
    if (!tokens.data) return '';
    const id = entry.actor.id?.slice(SCIM_ACTOR_PREFIX.length);
    return tokens.data.find((token: ScimTokenDto) => token._id === id)?.name ?? t('identity.changes.revokedToken');
  };
  const columns: Array<DataColumn<AuditEntryDto>> = [
    {
      id: 'when',
      header: t('identity.changes.when'),
      cell: (e) => new Date(e.occurredAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    },
    {
      id: 'what',
      header: t('identity.changes.what'),
      cell: (e) => <span data-testid="provisioning-change-kind">{t(`identity.changes.types.${kindOf(e)}`)}</span>,
    },
    { id: 'who', header: t('identity.changes.who'), cell: (e) => <span className="break-all">{personOf(e)}</span> },
    { id: 'token', header: t('identity.changes.token'), cell: tokenName },
  ];
  return (
    <section aria-labelledby="provisioning-changes-title">
      <h2 id="provisioning-changes-title" className="mb-3 text-lg font-semibold text-gray-900 dark:text-white">
        {t('identity.changes.title')}
      </h2>
      <DataTable
        label={t('identity.changes.title')}
        columns={columns}
        rows={changes.data?.items ?? NONE}
        rowId={(e) => e._id}
        loading={changes.isFetching}
        error={changes.error ? (errorMessage(changes.error) ?? t('identity.changes.loadFailed')) : null}
        onRetry={() => void changes.refetch()}
        emptyText={t('identity.changes.empty')}
        testId="provisioning-changes"
      />
    </section>
  );
}
