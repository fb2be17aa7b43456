import type { Migration } from '@earshot/kit';

/** The tasks schema. Runs with search_path = tasks: plain names. Never edit a released one. */
export const migrations: Migration[] = [];
