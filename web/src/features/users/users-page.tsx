import { useMemo, useState, type ReactElement } from 'react';
import type { AdminUserDto } from '@earshot/contracts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type DataColumn } from '../../components/data-table';
import { DropdownMenu } from '../../components/dropdown-menu';
import { FormDialog, submitButtonClass } from '../../components/form-dialog';
import { PageHeading } from '../../components/page-heading';
import { usePrivacyActions } from '../../entities/people';
import { Pager } from '../../components/pager';
import { ToastRegion, useToasts } from '../../components/toast';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { formatCredits } from '../../lib/credits-format';
import { useAppSelector } from '../../lib/store';
import { roleOf } from '../../lib/stored-user';
import { CapForm } from './cap-form';
import { catalogue as capCatalogue } from './cap-i18n';
import { CreateUserForm } from './create-user-form';
import { EditUserForm } from './edit-user-form';
import { catalogue } from './i18n';
import { fullName, roleOptions, userRole } from './model';
import { OneTimePassword } from './one-time-password';
import { useUserActions } from './use-user-actions';
import { UsersFilters } from './users-filters';
import { useRolesQuery, useUsersQuery, type UserFilters } from './users-api';
import { useCompanyOptionsQuery } from '../../entities/companies';
import { formatDateTime } from '../../lib/format-time';

const NO_USERS: AdminUserDto[] = [];
const badge = 'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium';
const STATUS_TONES: Record<AdminUserDto['status'], string> = {
  active: 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200',
  disabled: 'bg-gray-200 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
  invited: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200',
};

/** /users: HOST_ADMIN sees every company's users (with a company filter), an ADMIN their own company's. */
export default function UsersPage(): ReactElement {
  const { t, i18n } = useFeatureTranslation(catalogue, capCatalogue);
  const callerRole = useAppSelector((state) => roleOf(state.session.user));
  const isHost = callerRole === 'HOST_ADMIN';
  const [filters, setFilters] = useState<UserFilters>({ page: 1 });
  const list = useUsersQuery(filters);
  const roles = useRolesQuery();
  const companies = useCompanyOptionsQuery(undefined, { skip: !isHost });
  const { toasts, show, dismiss } = useToasts();
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'edit' | 'cap'; user: AdminUserDto } | null>(null);
  const [secret, setSecret] = useState<{ email: string; password: string } | null>(null);
  const actions = useUserActions(t, show, setSecret);
  const privacy = usePrivacyActions();

  const choices = useMemo(() => roleOptions(roles.data ?? [], callerRole), [roles.data, callerRole]);
  const companyList = isHost ? (companies.data ?? []) : null;
  const companyNames = useMemo(
    () => new Map((companies.data ?? []).map((company) => [company._id, company.name])),
    [companies.data],
  );

  const columns = useMemo<Array<DataColumn<AdminUserDto>>>(
    () => [
      {
        id: 'name',
        header: t('users.columns.name'),
        cell: (u) => <span className="font-medium">{fullName(u)}</span>,
        sortValue: fullName,
        canHide: false,
      },
      // Right after the name: on a phone the first two columns are what shows before scrolling, and who
      // may do what matters more there than the address (which the search also finds).
      {
        id: 'role',
        header: t('users.columns.role'),
        cell: (u) => <span data-testid="user-role">{t(`roles.${userRole(u)}`)}</span>,
        sortValue: userRole,
      },
      { id: 'email', header: t('users.columns.email'), cell: (u) => u.email, sortValue: (u) => u.email },
      ...(isHost
        ? [
            {
              id: 'company',
              header: t('users.columns.company'),
              cell: (u: AdminUserDto) => (u.companyId ? (companyNames.get(u.companyId) ?? u.companyId) : '—'),
              sortValue: (u: AdminUserDto) => (u.companyId ? (companyNames.get(u.companyId) ?? u.companyId) : null),
            },
          ]
        : []),
      {
        id: 'status',
        header: t('users.columns.status'),
        sortValue: (u) => u.status,
        cell: (u) => (
          <span className="flex flex-col items-start gap-0.5" data-testid="user-status">
            <span className={`${badge} ${STATUS_TONES[u.status]}`}>{t(`users.status.${u.status}`)}</span>
            {u.status === 'invited' && (
              <span className="text-xs whitespace-nowrap text-gray-600 dark:text-gray-400">
                {u.invitationExpiresAt
                  ? t('users.invitationUntil', { date: formatDateTime(u.invitationExpiresAt, i18n.language) })
                  : t('users.invitationExpired')}
              </span>
            )}
          </span>
        ),
      },
      {
        id: 'cap',
        header: t('cap.column'),
        sortValue: (u) => u.monthlyCredits,
        cell: (u) => (
          <span className="whitespace-nowrap tabular-nums" data-testid="user-cap">
            {u.monthlyCredits === null ? t('cap.none') : formatCredits(u.monthlyCredits, i18n.language)}
          </span>
        ),
      },
      {
        id: 'twoStep',
        header: t('users.columns.twoStep'),
        cell: (u) => (u.twoStepEnabled ? t('users.on') : t('users.off')),
        sortValue: (u) => Number(u.twoStepEnabled),
      },
      {
        id: 'lastSignIn',
        header: t('users.columns.lastSignIn'),
        cell: (u) =>
          u.lastSignInAt ? (
            <time dateTime={u.lastSignInAt} className="whitespace-nowrap">
              {formatDateTime(u.lastSignInAt, i18n.language)}
            </time>
          ) : (
            t('users.never')
          ),
        sortValue: (u) => u.lastSignInAt,
      },
    ],
    [t, isHost, companyNames, i18n.language],
  );

  const page = list.data;
  const close = () => setDialog(null);
  const failed = actions.failed;

  return (
    <div>
      <div className="mb-2 flex flex-wrap items-start justify-between gap-4">
        <PageHeading>{t('pages.users')}</PageHeading>
        <button
          type="button"
          className={submitButtonClass}
          onClick={() => setDialog({ kind: 'create' })}
          disabled={choices.length === 0}
          data-testid="add-user"
        >
          {t('users.create')}
        </button>
      </div>
      <UsersFilters value={filters} companies={companyList} onChange={setFilters} />
      <DataTable
        label={t('pages.users')}
        testId="users-table"
        columns={columns}
        rows={page?.items ?? NO_USERS}
        rowId={(user) => user._id}
        loading={list.isFetching}
        error={list.error ? (errorMessage(list.error) ?? t('users.loadFailed')) : null}
        onRetry={() => void list.refetch()}
        emptyText={t('users.empty')}
        rowActions={(user) => (
          <DropdownMenu
            label={t('users.actions.menu', { name: fullName(user) })}
            button={<span aria-hidden="true">⋯</span>}
            buttonClassName="rounded-lg px-2 py-1 text-lg leading-none text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800"
            testId="user-actions"
            entries={
              user.status === 'invited'
                ? [
                    { key: 'edit', label: t('users.actions.edit'), onSelect: () => setDialog({ kind: 'edit', user }) },
                    {
                      key: 'resendInvitation',
                      label: t('users.actions.resendInvitation'),
                      onSelect: () => void actions.resend(user),
                    },
                    {
                      key: 'revokeInvitation',
                      label: t('users.actions.revokeInvitation'),
                      onSelect: () => actions.ask('revokeInvitation', user),
                    },
                  ]
                : [
                    { key: 'edit', label: t('users.actions.edit'), onSelect: () => setDialog({ kind: 'edit', user }) },
                    {
                      key: 'cap',
                      label: t('cap.action'),
                      onSelect: () => setDialog({ kind: 'cap', user }),
                      testId: 'user-cap-action',
                    },
                    user.status === 'active'
                      ? {
                          key: 'disable',
                          label: t('users.actions.disable'),
                          onSelect: () => actions.ask('disable', user),
                        }
                      : { key: 'enable', label: t('users.actions.enable'), onSelect: () => void actions.enable(user) },
                    {
                      key: 'resetPassword',
                      label: t('users.actions.resetPassword'),
                      onSelect: () => actions.ask('resetPassword', user),
                    },
                    ...(user.twoStepEnabled
                      ? [
                          {
                            key: 'resetTwoStep',
                            label: t('users.actions.resetTwoStep'),
                            onSelect: () => actions.ask('resetTwoStep', user),
                          },
                        ]
                      : []),
                    ...privacy.entries({ kind: 'user', id: user._id, name: fullName(user), email: user.email }),
                    {
                      key: 'delete',
                      label: t('users.actions.delete'),
                      onSelect: () => actions.ask('delete', user),
                      testId: 'delete-user',
                    },
                  ]
            }
          />
        )}
        footer={
          page && page.totalPages > 1 ? (
            <Pager
              page={page.page}
              totalPages={page.totalPages}
              onPage={(next) => setFilters({ ...filters, page: next })}
              info={t('users.pageOf', { page: page.page, total: page.totalPages, count: page.total })}
              previous={t('users.previous')}
              next={t('users.next')}
            />
          ) : undefined
        }
      />

      <FormDialog
        open={dialog !== null}
        title={
          dialog?.kind === 'edit'
            ? t('users.form.editTitle', { name: fullName(dialog.user) })
            : dialog?.kind === 'cap'
              ? t('cap.title', { name: fullName(dialog.user) })
              : t('users.form.createTitle')
        }
        onClose={close}
      >
        {dialog?.kind === 'create' && (
          <CreateUserForm
            roles={choices}
            companies={companyList}
            onCancel={close}
            onFailed={failed}
            onCreated={(user) => {
              close();
              show({
                kind: 'success',
                title:
                  user.status === 'invited'
                    ? t('users.toast.invited', { email: user.email })
                    : t('users.toast.created'),
              });
              if (user.temporaryPassword) setSecret({ email: user.email, password: user.temporaryPassword });
            }}
          />
        )}
        {dialog?.kind === 'edit' && (
          <EditUserForm
            user={dialog.user}
            roles={choices}
            onCancel={close}
            onFailed={failed}
            onSaved={() => {
              close();
              show({ kind: 'success', title: t('users.toast.saved') });
            }}
          />
        )}
        {dialog?.kind === 'cap' && (
          <CapForm
            user={dialog.user}
            onCancel={close}
            onFailed={failed}
            onSaved={() => {
              close();
              show({ kind: 'success', title: t('cap.saved') });
            }}
          />
        )}
      </FormDialog>
      <OneTimePassword secret={secret} onDone={() => setSecret(null)} />
      {privacy.dialog}
      <ConfirmDialog
        open={actions.confirming !== null}
        message={
          actions.confirming
            ? t(`users.confirm.${actions.confirming.kind}`, { name: fullName(actions.confirming.user) })
            : ''
        }
        confirmLabel={t('users.confirm.yes')}
        cancelLabel={t('users.confirm.cancel')}
        busy={actions.busy}
        onConfirm={() => void actions.confirm()}
        onCancel={actions.cancel}
      />
      <ToastRegion toasts={toasts} onDismiss={dismiss} closeLabel={t('users.toast.close')} />
    </div>
  );
}
