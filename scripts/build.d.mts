// Types of build.mjs, for the tests that hold the deployment files to what the build writes.
export interface Entrypoint {
  /** The workspace folder, e.g. `services/auth`. */
  workspace: string;
  /** The TypeScript entry, from the repository root. */
  source: string;
  /** The compiled bundle, from the repository root. */
  output: string;
}
export const root: string;
export function entrypoints(): Entrypoint[];
export function buildAll(): Promise<string[]>;
export function serversAreStale(): boolean;
export function ensureServersBuilt(): number;
/** The operator commands (`npm run backup` & co.), compiled into `dist/scripts/`. */
export function commands(): Entrypoint[];
