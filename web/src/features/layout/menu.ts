// The sidebar menu (the product's layout and navigation) with each item's role list.
// Items without a role list are visible to every signed-in user; when the stored user has no role,
// no role-restricted item shows. Entries are grouped into sections so the home screen (Main Chat)
// and the administration screens are easy to find; the entries themselves are the spec's.
import type { IconName } from '../../components/icons';
import { ADMINS, ALL_ROLES, HOST_ONLY, type Role } from '@earshot/contracts/constants';

export interface MenuLink {
  key: string;
  labelKey: string;
  path: string;
  roles?: readonly Role[];
  /** The switchable feature (tenant FEATURES key) the entry belongs to. */
  feature?: string;
}

export interface MenuItem extends Partial<MenuLink> {
  key: string;
  labelKey: string;
  icon: IconName;
  roles?: readonly Role[];
  feature?: string;
  children?: MenuLink[];
}

export interface MenuSection {
  key: string;
  labelKey: string;
  items: MenuItem[];
}

const ALL = ALL_ROLES;
const HOST = HOST_ONLY;
const HOST_OR_ADMIN = ADMINS;
const ADMIN_OR_CALLER: readonly Role[] = ['ADMIN', 'CALLER'];
const ADMIN: readonly Role[] = ['ADMIN'];
/** The CRM dashboard: the roles that work with clients, and the HOST_ADMIN looking at a company. */
const CRM: readonly Role[] = ['HOST_ADMIN', 'ADMIN', 'CALLER'];

export const MENU: MenuSection[] = [
  {
    key: 'workspace',
    labelKey: 'menu.sectionWorkspace',
    items: [
      { key: 'main-chat', labelKey: 'menu.mainChat', path: '/chat', icon: 'chat', roles: ALL, feature: 'chat' },
      {
        key: 'transcripts',
        labelKey: 'menu.transcripts',
        path: '/transcripts',
        icon: 'transcript',
        roles: ALL,
        feature: 'transcription',
      },
      {
        key: 'clients',
        labelKey: 'menu.clients',
        path: '/clients',
        icon: 'briefcase',
        roles: ADMIN_OR_CALLER,
        feature: 'clients',
      },
      { key: 'usage', labelKey: 'menu.usage', path: '/usage', icon: 'chart', roles: ALL },
      {
        key: 'custom-gpts',
        labelKey: 'menu.customGpts',
        path: '/custom-gpts',
        icon: 'bot',
        roles: HOST_OR_ADMIN,
        feature: 'custom_gpts',
      },
      {
        key: 'ai-features',
        labelKey: 'menu.aiFeatures',
        icon: 'sparkles',
        roles: ADMIN,
        children: [
          {
            key: 'forest-ai',
            labelKey: 'menu.forestAi',
            path: '/ai-features/forest-ai',
            roles: ADMIN,
            feature: 'forest_ai',
          },
          {
            key: 'data-bridge',
            labelKey: 'menu.dataBridge',
            path: '/ai-features/data-bridge',
            roles: ADMIN,
            feature: 'data_bridge',
          },
          {
            key: 'helpdesk-ai',
            labelKey: 'menu.helpdeskAi',
            path: '/ai-features/helpdesk-ai',
            roles: ADMIN,
            feature: 'helpdesk_ai',
          },
          {
            key: 'financial-analyst',
            labelKey: 'menu.financialAnalyst',
            path: '/ai-features/financial-analyst',
            roles: ADMIN,
            feature: 'financial_analyst',
          },
          {
            key: 'law-module',
            labelKey: 'menu.lawModule',
            path: '/ai-features/law-module',
            roles: ADMIN,
            feature: 'law_module',
          },
        ],
      },
    ],
  },
  {
    key: 'administration',
    labelKey: 'menu.sectionAdministration',
    items: [
      { key: 'companies', labelKey: 'menu.companies', path: '/companies', icon: 'building', roles: HOST },
      { key: 'users', labelKey: 'menu.users', path: '/users', icon: 'users', roles: HOST_OR_ADMIN },
      { key: 'features', labelKey: 'menu.features', path: '/features', icon: 'toggle', roles: HOST },
      { key: 'prompts', labelKey: 'menu.prompts', path: '/prompts', icon: 'prompt', roles: HOST },
      { key: 'b2c-users', labelKey: 'menu.b2cUsers', path: '/b2c-users', icon: 'user', roles: HOST },
      { key: 'audit-logs', labelKey: 'menu.auditLogs', path: '/audit-logs', icon: 'log', roles: HOST },
      { key: 'pricing', labelKey: 'menu.pricing', path: '/pricing', icon: 'money', roles: HOST },
      { key: 'invoice', labelKey: 'menu.invoice', path: '/invoice', icon: 'log', roles: HOST_OR_ADMIN },
      // An ADMIN reads their company's data policies here; a HOST_ADMIN sets them in the company dialog.
      { key: 'data-policies', labelKey: 'menu.dataPolicies', path: '/data-policies', icon: 'toggle', roles: ADMIN },
      { key: 'email-templates', labelKey: 'menu.emailTemplates', path: '/email-templates', icon: 'mail', roles: HOST },
      { key: 'ai-config', labelKey: 'menu.aiConfig', path: '/ai-config', icon: 'cpu', roles: HOST },
      // A company's outgoing webhooks: its ADMIN's; a HOST_ADMIN picks the company on the page.
      { key: 'webhooks', labelKey: 'menu.webhooks', path: '/webhooks', icon: 'globe', roles: HOST_OR_ADMIN },
      // The company's sign-in through its own identity provider: its ADMIN's; a HOST_ADMIN picks the company.
      { key: 'identity', labelKey: 'menu.identity', path: '/identity', icon: 'shield', roles: HOST_OR_ADMIN },
    ],
  },
  {
    key: 'apps',
    labelKey: 'menu.sectionApps',
    items: [
      {
        key: 'dashboard',
        labelKey: 'menu.dashboard',
        icon: 'dashboard',
        children: [
          { key: 'ecommerce', labelKey: 'menu.ecommerce', path: '/ecommerce' },
          { key: 'analytics', labelKey: 'menu.analytics', path: '/analytics', roles: ALL },
          { key: 'marketing', labelKey: 'menu.marketing', path: '/marketing' },
          { key: 'crm', labelKey: 'menu.crm', path: '/crm', roles: CRM },
          { key: 'stocks', labelKey: 'menu.stocks', path: '/stocks' },
          { key: 'saas', labelKey: 'menu.saas', path: '/saas', roles: HOST },
        ],
      },
      { key: 'calendar', labelKey: 'menu.calendar', path: '/calendar', icon: 'calendar' },
      { key: 'user-profile', labelKey: 'menu.userProfile', path: '/profile', icon: 'user' },
      { key: 'search', labelKey: 'menu.search', path: '/search', icon: 'search' },
      { key: 'tags', labelKey: 'menu.tags', path: '/tags', icon: 'tag' },
      {
        key: 'task',
        labelKey: 'menu.task',
        icon: 'task',
        children: [
          { key: 'task-list', labelKey: 'menu.taskList', path: '/task-list' },
          { key: 'task-kanban', labelKey: 'menu.taskKanban', path: '/task-kanban' },
        ],
      },
      {
        key: 'forms',
        labelKey: 'menu.forms',
        icon: 'form',
        children: [
          { key: 'form-elements', labelKey: 'menu.formElements', path: '/form-elements' },
          { key: 'form-layout', labelKey: 'menu.formLayout', path: '/form-layout' },
        ],
      },
    ],
  },
];

/** Switches of the member's company (`GET /features/enabled`); a key left out counts as on. */
export type EnabledFeatures = Readonly<Record<string, boolean>>;

function allowed(
  entry: { roles?: readonly Role[]; feature?: string },
  role: Role | null,
  enabled: EnabledFeatures,
): boolean {
  if (entry.feature && enabled[entry.feature] === false) return false;
  if (!entry.roles) return true;
  return role !== null && entry.roles.includes(role);
}

/**
 * The menu a user with `role` sees (null: no or unknown role → only unrestricted items), without
 * the features their company has switched off (the server refuses those routes anyway).
 */
export function visibleMenu(
  role: Role | null,
  menu: MenuSection[] = MENU,
  enabled: EnabledFeatures = {},
): MenuSection[] {
  return menu
    .map((section) => ({
      ...section,
      items: section.items
        .filter((item) => allowed(item, role, enabled))
        .map((item) =>
          item.children ? { ...item, children: item.children.filter((child) => allowed(child, role, enabled)) } : item,
        )
        .filter((item) => !item.children || item.children.length > 0),
    }))
    .filter((section) => section.items.length > 0);
}
