import {
  counted,
  createStorage,
  inPages,
  onEraseRequested,
  onExportRequested,
  type PageEnd,
  type PrivacyPart,
  type StorageConfig,
} from '@earshot/kit';
import {
  anonymiseRunsRequestedBy,
  deleteRunsRequestedBy,
  forgetUploader,
  runsRequestedBy,
} from '../repositories/privacy';

/**
 * The prompt service's part of a person's export: the analysis runs a user asked for,
 * with their results. A client contact asks for none (their calls' runs are the company's work).
 */
export const promptExportPart = (config: StorageConfig) =>
  onExportRequested('prompt', createStorage(config), (tx, subject, companyId): PrivacyPart => {
    const rows =
      subject.kind === 'user' && companyId
        ? inPages((after: PageEnd | null, limit) => runsRequestedBy(tx, companyId, subject.id, { after, limit }))
        : [];
    const counts = {};
    return {
      data: {
        runs: counted(counts, 'runs', rows, (row) => ({
          id: row.id,
          fileId: row.fileId,
          promptId: row.promptId,
          promptVersion: row.promptVersion,
          patternId: row.patternId,
          status: row.status,
          result: row.result,
          actionItems: row.actionItems,
          model: row.model,
          createdAt: row.createdAt,
          finishedAt: row.finishedAt,
        })),
      },
      counts,
    };
  });

/**
 * The prompt service's part of erasing a user, in their company, as the company chose
 * for their recordings: deleted, the runs they asked for go too (those on their own recordings go
 * anyway with file.deleted); kept, the runs stay as the company's work without saying who asked,
 * and the copies of their recordings (transcript copy, dashboards) no longer name them. A client
 * contact asks for no runs: their calls' copies follow file.deleted and transcript.client_linked.
 */
export const promptErasePart = onEraseRequested(
  'prompt',
  async (tx, _emit, { subject, companyId, recordings }): Promise<Record<string, number>> => {
    if (subject.kind !== 'user' || !companyId) return {};
    if (recordings === 'delete') return { runsDeleted: await deleteRunsRequestedBy(tx, companyId, subject.id) };
    return {
      runsAnonymised: await anonymiseRunsRequestedBy(tx, companyId, subject.id),
      uploadsKept: await forgetUploader(tx, companyId, subject.id),
    };
  },
);
