import { z } from 'zod';
import {
  GPT_LIMITS,
  GPT_MESSAGES,
  GPT_SCOPES,
  GPT_VISIBILITIES,
  KNOWLEDGE_FILE_STATUSES,
  KNOWLEDGE_UPLOAD_TYPES,
} from '../gpt-constants';
import { Id, PageQuery, paginated } from '../common';
import { Avatar } from './auth';

const L = GPT_LIMITS;
const noNul = (s: string) => !s.includes('\u0000');
const NUL = 'must not contain NUL characters';
const Text = (min: number, max: number) => z.string().trim().min(min).max(max).refine(noNul, NUL);

export const CustomGptDto = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Its system prompt. */
  instructions: z.string(),
  /** A chat model of the AI configuration; null: the default chat model. */
  modelId: z.string().nullable(),
  starters: z.array(z.string()),
  /** Whether its answers may also draw on the company's transcripts. */
  searchTranscripts: z.boolean(),
  visibility: z.enum(GPT_VISIBILITIES),
  /** visibility 'users': who may chat with it. */
  userIds: z.array(z.string()),
  enabled: z.boolean(),
  scope: z.enum(GPT_SCOPES),
  /** Platform GPTs: the companies it is offered to ([] = every company). */
  companyIds: z.array(z.string()),
  /** A company GPT's company; null for a platform GPT. */
  companyId: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  fileCount: z.number().int(),
});
export type CustomGptDto = z.infer<typeof CustomGptDto>;

const gptFields = {
  name: Text(1, L.nameMax),
  description: Text(0, L.descriptionMax).nullable().optional(),
  instructions: Text(1, L.instructionsMax),
  modelId: Id.nullable().optional(),
  starters: z.array(Text(1, L.starterMax)).max(L.startersMax).optional(),
  searchTranscripts: z.boolean().optional(),
  visibility: z.enum(GPT_VISIBILITIES),
  userIds: z.array(Id).max(L.audienceMax).optional(),
  enabled: z.boolean().optional(),
  /** An https URL or an uploaded image (/api/uploads/…). */
  avatar: Avatar.optional(),
  /** HOST_ADMIN only: the companies a platform GPT is offered to ([] or absent: every company). */
  companyIds: z.array(Id).max(L.audienceMax).optional(),
};

/** A GPT shown to chosen people names them (a change that leaves userIds out keeps the stored ones). */
const needsUsers = (partial: boolean) => (body: { visibility?: string; userIds?: string[] }, ctx: z.RefinementCtx) => {
  if (body.visibility !== 'users' || (partial && body.userIds === undefined)) return;
  if ((body.userIds?.length ?? 0) === 0)
    ctx.addIssue({ code: 'custom', path: ['userIds'], message: GPT_MESSAGES.usersRequired });
};

/** POST /custom-gpt (HOST_ADMIN: a platform GPT; ADMIN: their company's). */
export const CreateCustomGptBody = z.object(gptFields).strict().superRefine(needsUsers(false));
export type CreateCustomGptBody = z.infer<typeof CreateCustomGptBody>;
export type CreateCustomGptInput = z.input<typeof CreateCustomGptBody>;

/** PUT /custom-gpt/{id}: any of the fields; those absent stay as they are. */
export const UpdateCustomGptBody = z.object(gptFields).partial().strict().superRefine(needsUsers(true));
export type UpdateCustomGptBody = z.infer<typeof UpdateCustomGptBody>;
export type UpdateCustomGptInput = z.input<typeof UpdateCustomGptBody>;

export const CustomGptListQuery = PageQuery.extend({ search: Text(0, 200).optional() }).strict();
export type CustomGptListQuery = z.infer<typeof CustomGptListQuery>;
export const CustomGptList = paginated(CustomGptDto);
export type CustomGptList = z.infer<typeof CustomGptList>;

/** GET /custom-gpt/dropdown: the GPTs the caller may chat with (enabled, visible to them). */
export const CustomGptOption = CustomGptDto.pick({
  _id: true,
  name: true,
  description: true,
  avatar: true,
  starters: true,
});
export type CustomGptOption = z.infer<typeof CustomGptOption>;
export const CustomGptDropdown = z.array(CustomGptOption);
export type CustomGptDropdown = z.infer<typeof CustomGptDropdown>;

export const KnowledgeFileDto = z.object({
  _id: z.string(),
  name: z.string(),
  /** Recognised from the content. */
  mimeType: z.string(),
  size: z.number().int(),
  status: z.enum(KNOWLEDGE_FILE_STATUSES),
  /** Why it failed (failed only). */
  error: z.string().nullable(),
  /** Pages of a PDF (null for formats without pages, or before extraction). */
  pages: z.number().int().nullable(),
  chunks: z.number().int(),
  /** 0-100. */
  progress: z.number().int().min(0).max(100),
  createdAt: z.string(),
});
export type KnowledgeFileDto = z.infer<typeof KnowledgeFileDto>;
export const KnowledgeFileList = z.array(KnowledgeFileDto);
export type KnowledgeFileList = z.infer<typeof KnowledgeFileList>;

/** POST /custom-gpt/{id}/files?type=knowledge (multipart field `file`). */
export const KnowledgeUploadQuery = z.object({ type: z.enum(KNOWLEDGE_UPLOAD_TYPES) }).strict();
export const KnowledgeFileParams = z.object({ id: Id, docId: Id }).strict();
