import { and, arrayContains, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@earshot/kit';
import {
  analysisPatternPrompts,
  analysisPatterns,
  analysisRuns,
  clients,
  companyLanguages,
  promptVersions,
  prompts,
  transcriptSegments,
  transcripts,
} from '../db/schema';

/**
 * Deletes a company's analysis runs, its copy of the company's transcripts, clients and language,
 * its own analysis patterns and the prompts that were only for it (with their versions); a prompt
 * shared with other companies just loses this one. Global prompts stay.
 */
export async function deleteCompanyPrompts(tx: Db, companyId: string): Promise<void> {
  await tx.delete(analysisRuns).where(eq(analysisRuns.companyId, companyId));
  const files = tx.select({ fileId: transcripts.fileId }).from(transcripts).where(eq(transcripts.companyId, companyId));
  await tx.delete(transcriptSegments).where(inArray(transcriptSegments.fileId, files));
  await tx.delete(transcripts).where(eq(transcripts.companyId, companyId));
  await tx.delete(clients).where(eq(clients.companyId, companyId));
  await tx.delete(companyLanguages).where(eq(companyLanguages.id, companyId));
  await tx.delete(analysisPatterns).where(eq(analysisPatterns.companyId, companyId));
  const only = await tx
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.isGlobal, false), sql`${prompts.companies} = array[${companyId}]::uuid[]`));
  const ids = only.map((r) => r.id);
  if (ids.length) {
    await tx.delete(analysisPatternPrompts).where(inArray(analysisPatternPrompts.promptId, ids));
    await tx.delete(promptVersions).where(inArray(promptVersions.promptId, ids));
    await tx.delete(prompts).where(inArray(prompts.id, ids));
  }
  await tx
    .update(prompts)
    .set({ companies: sql`array_remove(${prompts.companies}, ${companyId}::uuid)` })
    .where(arrayContains(prompts.companies, [companyId]));
}
