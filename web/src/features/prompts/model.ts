// The prompt service's answers are the contracts' types (type-only: the zod schemas come in
// through the form only, inside this lazy admin chunk); this file adds the page's own rules.
import { PROMPT_SCOPES, PROMPT_TYPES, type PromptScope, type PromptType } from '@earshot/contracts/constants';
import type { PromptBodyInput, PromptDto } from '@earshot/contracts';

export type {
  PromptBodyInput,
  PromptDto as Prompt,
  PromptList,
  PromptVersionDto as PromptVersion,
} from '@earshot/contracts';
export {
  FORMAT_FIELD_TYPES,
  PROMPT_MESSAGES,
  PROMPT_SCOPES,
  PROMPT_TYPES,
  PROMPT_VARIABLES,
  type FormatFieldType,
  type PromptScope,
  type PromptType,
} from '@earshot/contracts/constants';

export const PROMPTS_PAGE_SIZE = 10;

/** The list's filters, as kept in the URL. */
export interface PromptFilters {
  page: number;
  search: string;
  type: PromptType | '';
  /** 'NA': prompts without a scope. */
  scope: PromptScope | 'NA' | '';
}

const isType = (value: string | null): value is PromptType => (PROMPT_TYPES as readonly string[]).includes(value ?? '');
const isScope = (value: string | null): value is PromptScope | 'NA' =>
  value === 'NA' || (PROMPT_SCOPES as readonly string[]).includes(value ?? '');

export function filtersFromSearch(search: URLSearchParams): PromptFilters {
  const page = Number(search.get('page'));
  const type = search.get('type');
  const scope = search.get('scope');
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    search: search.get('search') ?? '',
    type: isType(type) ? type : '',
    scope: isScope(scope) ? scope : '',
  };
}

export function searchFromFilters(filters: PromptFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (filters.search.trim()) out.set('search', filters.search.trim());
  if (filters.type) out.set('type', filters.type);
  if (filters.scope) out.set('scope', filters.scope);
  if (filters.page > 1) out.set('page', String(filters.page));
  return out;
}

/** The form's starting values: a new prompt, or the one being edited (fields as the server keeps them). */
export function formValues(prompt: PromptDto | null): PromptBodyInput {
  return {
    name: prompt?.name ?? '',
    description: prompt?.description ?? '',
    prompt: prompt?.prompt ?? '',
    type: prompt?.type ?? 'summary',
    expectedFormat: (prompt?.expectedFormat ?? []).map((field) => ({
      ...field,
      range: field.range ?? null,
      options: field.options ?? null,
    })),
    scope: prompt?.scope ?? null,
    isGlobal: prompt?.isGlobal ?? false,
    companies: prompt?.companies ?? [],
    users: prompt?.users ?? [],
  };
}
