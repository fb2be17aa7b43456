// The custom GPT screens' data: the contracts' types (this is a lazy admin chunk, so the form may
// validate with the contracts' own zod schema, the server's rules) and the form's values ↔ body.
import { z } from 'zod';
import {
  CreateCustomGptBody,
  type ChatModelsDto,
  type CreateCustomGptInput,
  type CustomGptDto,
  type CustomGptList as List,
  type KnowledgeFileDto,
  type UserDropdownItem,
} from '@earshot/contracts';
import {
  GPT_LIMITS,
  GPT_MESSAGES,
  GPT_VISIBILITIES,
  KNOWLEDGE_ACCEPT,
  type GptVisibility,
  type Role,
} from '@earshot/contracts/constants';

export { GPT_LIMITS, GPT_MESSAGES, GPT_VISIBILITIES, KNOWLEDGE_ACCEPT };
export type CustomGpt = CustomGptDto;
export type CustomGptList = List;
export type KnowledgeFile = KnowledgeFileDto;
/** What the form sends (create; an update sends the same fields). */
export type CustomGptBody = CreateCustomGptInput;

export const GPT_PAGE_SIZE = 20;
/** How often the files are asked again while one is still being read. */
export const KNOWLEDGE_POLL_MS = 1500;
/** The formats as people know them, for the upload hint. */
export const KNOWLEDGE_TYPE_NAMES = ['PDF', 'DOCX', 'TXT', 'Markdown', 'CSV', 'HTML'];

export interface GptListArgs {
  page: number;
  search: string;
}

/** A chat model the GPT may use (GET /chat/models). */
export type ChatModelOption = ChatModelsDto['models'][number];
/** A person of the company who may be given the GPT (GET /users/dropdown). */
export type UserOption = UserDropdownItem;

export interface GptFormInput {
  name: string;
  description: string;
  avatar: string;
  instructions: string;
  /** '' = the default chat model. */
  modelId: string;
  starters: string[];
  searchTranscripts: boolean;
  visibility: GptVisibility;
  userIds: string[];
  enabled: boolean;
  /** Platform GPTs: offered to every company ('all', companyIds []) or to those chosen. */
  offer: 'all' | 'chosen';
  companyIds: string[];
}

/** The fields a server answer may name, to show its message there. */
export const GPT_FIELDS = [
  'name',
  'description',
  'avatar',
  'instructions',
  'modelId',
  'starters',
  'searchTranscripts',
  'visibility',
  'userIds',
  'enabled',
  'companyIds',
] as const;

export function formValues(gpt: CustomGpt | null): GptFormInput {
  return {
    name: gpt?.name ?? '',
    description: gpt?.description ?? '',
    avatar: gpt?.avatar ?? '',
    instructions: gpt?.instructions ?? '',
    modelId: gpt?.modelId ?? '',
    starters: gpt?.starters ?? [],
    searchTranscripts: gpt?.searchTranscripts ?? false,
    visibility: gpt?.visibility ?? 'company',
    userIds: gpt?.userIds ?? [],
    enabled: gpt?.enabled ?? true,
    offer: gpt && gpt.companyIds.length > 0 ? 'chosen' : 'all',
    companyIds: gpt?.companyIds ?? [],
  };
}

/** Blank inputs are "none" (null), empty starters are dropped, and audiences only go with their choice. */
function toBody(input: GptFormInput, platform: boolean): CustomGptBody {
  const blankIsNull = (text: string) => (text.trim() === '' ? null : text);
  return {
    name: input.name,
    description: blankIsNull(input.description),
    avatar: blankIsNull(input.avatar),
    instructions: input.instructions,
    modelId: input.modelId === '' ? null : input.modelId,
    starters: input.starters.filter((starter) => starter.trim() !== ''),
    searchTranscripts: input.searchTranscripts,
    visibility: input.visibility,
    userIds: input.visibility === 'users' ? input.userIds : [],
    enabled: input.enabled,
    ...(platform ? { companyIds: input.offer === 'chosen' ? input.companyIds : [] } : {}),
  };
}

/** The contracts' body schema (the server's rules) after the form's values become the body. */
export function gptFormSchema(platform: boolean) {
  return z.preprocess((input: GptFormInput) => toBody(input, platform), CreateCustomGptBody);
}

/**
 * "The companies I choose" with none chosen would offer the GPT to every company ([] on the
 * wire): refused before sending. A check of its own because the schema sees only the body.
 */
export function offersNoCompany(input: GptFormInput, platform: boolean): boolean {
  return platform && input.offer === 'chosen' && input.companyIds.length === 0;
}

/** Who may change a GPT: HOST_ADMIN the platform's, a company's ADMIN their company's (the server checks the company). */
export function canChange(gpt: CustomGpt, role: Role | null): boolean {
  return gpt.scope === 'platform' ? role === 'HOST_ADMIN' : role === 'ADMIN';
}

/** Ready or failed: nothing more will happen to the file. */
export function isSettled(file: KnowledgeFile): boolean {
  return file.status === 'ready' || file.status === 'failed';
}
