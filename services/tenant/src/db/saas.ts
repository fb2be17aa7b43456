import { text, timestamp } from 'drizzle-orm/pg-core';
import type { Migration } from '@earshot/kit';
import { tenant } from './schema';

/**
 * When each person last signed in (user.signed_in), for the platform overview's active users.
 * Kept by user id beside company_members, which says whose member they are: a sign-in
 * that arrives before its user.created is kept all the same.
 */
export const memberSignIns = tenant.table('member_sign_ins', {
  userId: text('user_id').primaryKey(),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }).notNull(),
});

export const saasMigrations: Migration[] = [
  {
    name: '0010_member_sign_ins',
    sql: `
      create table member_sign_ins (
        user_id text primary key,
        last_sign_in_at timestamptz not null
      );`,
  },
];
