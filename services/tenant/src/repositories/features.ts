import type { Db } from '@earshot/kit';
import { platformSwitches } from '../db/schema';

/** The platform-wide kill switches that are set (a feature not listed is on). */
export async function platformSwitchMap(db: Db): Promise<Record<string, boolean>> {
  const rows = await db.select().from(platformSwitches);
  return Object.fromEntries(rows.map((r) => [r.key, r.enabled]));
}

/** Sets a kill switch; whether it changed. */
export async function setPlatformSwitch(tx: Db, key: string, enabled: boolean): Promise<boolean> {
  const before = (await platformSwitchMap(tx))[key] ?? true;
  await tx
    .insert(platformSwitches)
    .values({ key, enabled })
    .onConflictDoUpdate({ target: platformSwitches.key, set: { enabled, updatedAt: new Date() } });
  return before !== enabled;
}
