import { describe, expect, it } from '@jest/globals';
import { visibleMenu } from './menu';
import type { Role } from '@earshot/contracts';

function keys(role: Role | null): string[] {
  return visibleMenu(role).flatMap((section) =>
    section.items.flatMap((item) => [item.key, ...(item.children ?? []).map((c) => c.key)]),
  );
}

const UNRESTRICTED = ['dashboard', 'calendar', 'user-profile', 'search', 'tags', 'task', 'forms'];
const HOST_ONLY = [
  'companies',
  'features',
  'prompts',
  'pricing',
  'b2c-users',
  'audit-logs',
  'email-templates',
  'ai-config',
];
const AI = ['ai-features', 'forest-ai', 'data-bridge', 'helpdesk-ai', 'financial-analyst', 'law-module'];

describe('sidebar menu by role', () => {
  it('HOST_ADMIN: administration, custom GPTs, users, chat and transcripts; no clients or AI features', () => {
    const menu = keys('HOST_ADMIN');
    for (const key of [
      ...HOST_ONLY,
      'custom-gpts',
      'users',
      'main-chat',
      'transcripts',
      'usage',
      'invoice',
      'webhooks',
      'identity',
      ...UNRESTRICTED,
    ])
      expect(menu).toContain(key);
    for (const key of ['clients', ...AI]) expect(menu).not.toContain(key);
  });

  it('ADMIN: custom GPTs, users, clients, AI features, chat and transcripts', () => {
    const menu = keys('ADMIN');
    for (const key of [
      'custom-gpts',
      'users',
      'clients',
      ...AI,
      'main-chat',
      'transcripts',
      'usage',
      'invoice',
      'webhooks',
      'identity',
    ])
      expect(menu).toContain(key);
    for (const key of HOST_ONLY) expect(menu).not.toContain(key);
  });

  it('CALLER: chat, transcripts and clients', () => {
    const menu = keys('CALLER');
    expect(menu).toEqual(expect.arrayContaining(['main-chat', 'transcripts', 'clients']));
    for (const key of [...HOST_ONLY, 'custom-gpts', 'users', 'invoice', 'webhooks', 'identity', ...AI])
      expect(menu).not.toContain(key);
  });

  it('USER: chat, transcripts and their own usage (no statements), plus the unrestricted items', () => {
    expect(keys('USER').sort()).toEqual(
      ['main-chat', 'transcripts', 'usage', ...UNRESTRICTED]
        .concat([
          'ecommerce',
          'analytics',
          'marketing',
          'stocks',
          'task-list',
          'task-kanban',
          'form-elements',
          'form-layout',
        ])
        .sort(),
    );
  });

  it('dashboards: analytics for every role, CRM for HOST_ADMIN, ADMIN and CALLER, SaaS for HOST_ADMIN only', () => {
    const dashboards = (role: Role | null) => keys(role).filter((key) => ['analytics', 'crm', 'saas'].includes(key));
    expect(dashboards('HOST_ADMIN')).toEqual(['analytics', 'crm', 'saas']);
    expect(dashboards('ADMIN')).toEqual(['analytics', 'crm']);
    expect(dashboards('CALLER')).toEqual(['analytics', 'crm']);
    expect(dashboards('USER')).toEqual(['analytics']);
    expect(dashboards(null)).toEqual([]);
    // The coming-soon demo dashboards stay for everyone.
    expect(keys(null)).toEqual(expect.arrayContaining(['ecommerce', 'marketing', 'stocks']));
  });

  it('no role: no role-restricted item at all, and empty sections disappear', () => {
    const menu = keys(null);
    for (const key of ['main-chat', 'transcripts', 'clients', 'custom-gpts', 'users', ...HOST_ONLY, ...AI])
      expect(menu).not.toContain(key);
    expect(menu).toEqual(expect.arrayContaining(UNRESTRICTED));
    expect(visibleMenu(null).map((section) => section.key)).toEqual(['apps']);
  });
});

describe('sidebar menu by the company’s feature switches', () => {
  const visible = (role: Role, enabled: Record<string, boolean>) =>
    visibleMenu(role, undefined, enabled).flatMap((section) =>
      section.items.flatMap((item) => [item.key, ...(item.children ?? []).map((c) => c.key)]),
    );

  it('hides an entry whose feature is off for the company, and keeps the rest', () => {
    const menu = visible('ADMIN', { chat: false, clients: false, transcription: true });
    expect(menu).not.toContain('main-chat');
    expect(menu).not.toContain('clients');
    expect(menu).toEqual(expect.arrayContaining(['transcripts', 'custom-gpts', 'users', 'forest-ai']));
  });

  it('drops a group whose every child is switched off', () => {
    const menu = visible('ADMIN', {
      forest_ai: false,
      data_bridge: false,
      helpdesk_ai: false,
      financial_analyst: false,
      law_module: false,
    });
    expect(menu).not.toContain('ai-features');
    expect(visible('ADMIN', { law_module: false })).toEqual(expect.arrayContaining(['ai-features', 'forest-ai']));
  });

  it('shows everything the role allows when the switches are unknown', () => {
    expect(visible('CALLER', {})).toEqual(expect.arrayContaining(['main-chat', 'transcripts', 'clients']));
  });
});
