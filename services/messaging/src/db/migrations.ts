import type { Migration } from '@earshot/kit';

/** The messaging schema. Runs with search_path = messaging: plain names. Never edit a released one. */
export const migrations: Migration[] = [];
