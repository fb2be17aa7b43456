import { createStorage, onExportRequested, type PrivacyPart, type StorageConfig } from '@earshot/kit';
import { runsRequestedBy } from '../repositories/privacy';

/**
 * The prompt service's part of a person's export (issue 25): the analysis runs a user asked for,
 * with their results. A client contact asks for none (their calls' runs are the company's work).
 */
export const promptExportPart = (config: StorageConfig) => onExportRequested('prompt', createStorage(config), async (tx, subject, companyId): Promise<PrivacyPart> => {
  const rows = subject.kind === 'user' && companyId ? await runsRequestedBy(tx, companyId, subject.id) : [];
  return {
    data: {
      runs: rows.map((row) => ({
        id: row.id, fileId: row.fileId, promptId: row.promptId, promptVersion: row.promptVersion, patternId: row.patternId, status: row.status,
        result: row.result, actionItems: row.actionItems, model: row.model, createdAt: row.createdAt, finishedAt: row.finishedAt,
      })),
    },
    counts: { runs: rows.length },
  };
});
