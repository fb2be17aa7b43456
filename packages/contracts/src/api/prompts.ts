import { z } from 'zod';
import {
  FORMAT_FIELD_TYPES,
  PATTERN_AUTO_RUN,
  PROMPT_LIMITS as L,
  PROMPT_MESSAGES as M,
  PROMPT_SCOPES,
  PROMPT_TYPES,
  PROMPT_VARIABLES,
  parseRange,
  promptVariables,
  unknownVariableMessage,
} from '../constants';
import { Id, Name, PageQuery, paginated } from '../common';

// PostgreSQL text and jsonb cannot hold NUL: refused as the caller's mistake, naming the field.
const noNul = (s: string) => !s.includes('\u0000');
const Text = (max: number) => z.string().trim().max(max).refine(noNul, M.noNul);
const Search = Text(200).optional();
const Required = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max).refine(noNul, M.noNul);

/**
 * One field of a prompt's expected format with the spec's messages: the
 * console's form and the server validate with this same schema.
 */
export const ExpectedFormatField = z
  .object({
    name: Required(L.fieldNameMax, M.fieldNameRequired),
    type: z.enum(FORMAT_FIELD_TYPES),
    /** Integer fields: `min-max`, e.g. "1-10". */
    range: Text(50).nullish(),
    /** Custom fields: the answers the model may give, e.g. positive, neutral, negative. */
    options: z.array(z.string().trim().min(1).max(L.optionMax).refine(noNul, M.noNul)).max(L.optionsMax).nullish(),
    description: Required(L.fieldDescriptionMax, M.descriptionRequired),
  })
  .strict()
  .superRefine((field, ctx) => {
    if (field.type === 'custom') {
      const options = field.options ?? [];
      if (options.length === 0) ctx.addIssue({ code: 'custom', path: ['options'], message: M.optionsRequired });
      else if (options.length < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: M.optionsTooFew });
      else if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
        ctx.addIssue({ code: 'custom', path: ['options'], message: M.optionsUnique });
    }
    if (field.type === 'integer') {
      const range = field.range ? parseRange(field.range) : null;
      if (!field.range) ctx.addIssue({ code: 'custom', path: ['range'], message: M.rangeRequired });
      else if (!range) ctx.addIssue({ code: 'custom', path: ['range'], message: M.rangeFormat });
      else if (range.min >= range.max) ctx.addIssue({ code: 'custom', path: ['range'], message: M.rangeOrder });
    }
  });
export type ExpectedFormatField = z.infer<typeof ExpectedFormatField>;

/** The fields become the keys of an analysis result, so their names differ. */
export const ExpectedFormat = z
  .array(ExpectedFormatField)
  .max(L.fieldsMax)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((field, i) => {
      if (seen.has(field.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: M.fieldNamesUnique });
      seen.add(field.name);
    });
  });

/** The prompt text: only the known variables (PROMPT_VARIABLES); an unknown one is named. */
export const PromptText = Required(L.textMax, 'Prompt text is required').superRefine((text, ctx) => {
  for (const name of promptVariables(text)) {
    if (!(PROMPT_VARIABLES as readonly string[]).includes(name))
      ctx.addIssue({ code: 'custom', message: unknownVariableMessage(name) });
  }
});

/** POST /prompts and PUT /prompts/{id} (the whole prompt; a changed content makes a new version). */
export const PromptBody = z
  .object({
    name: Name(L.nameMax).refine(noNul, M.noNul),
    description: Text(L.descriptionMax).default(''),
    prompt: PromptText,
    type: z.enum(PROMPT_TYPES),
    expectedFormat: ExpectedFormat.default([]),
    /** null: no scope (shown as 'NA'). */
    scope: z.enum(PROMPT_SCOPES).nullable().default(null),
    /** Runnable by everyone, whatever the scope. */
    isGlobal: z.boolean().default(false),
    /** Company prompts: the companies whose people may run it. */
    companies: z.array(Id).max(L.audienceMax).default([]),
    /** User prompts: the people who may run it. */
    users: z.array(Id).max(L.audienceMax).default([]),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.scope === 'company' && body.companies.length === 0)
      ctx.addIssue({ code: 'custom', path: ['companies'], message: M.companiesRequired });
    if (body.scope === 'user' && body.users.length === 0)
      ctx.addIssue({ code: 'custom', path: ['users'], message: M.usersRequired });
  });
export type PromptBody = z.infer<typeof PromptBody>;
export type PromptBodyInput = z.input<typeof PromptBody>;

/** A field as stored and returned: range only for integers, options only for custom fields. */
export const FormatFieldDto = z.object({
  name: z.string(),
  type: z.enum(FORMAT_FIELD_TYPES),
  range: z.string().optional(),
  options: z.array(z.string()).optional(),
  description: z.string(),
});
export type FormatFieldDto = z.infer<typeof FormatFieldDto>;

/** What a version fixes: an analysis result names the version it was made with. */
const VersionedContent = {
  name: z.string(),
  description: z.string(),
  prompt: z.string(),
  type: z.enum(PROMPT_TYPES),
  expectedFormat: z.array(FormatFieldDto),
  version: z.number().int().min(1),
};

export const PromptDto = z.object({
  _id: z.string(),
  ...VersionedContent,
  scope: z.enum(PROMPT_SCOPES).nullable(),
  isGlobal: z.boolean(),
  companies: z.array(z.string()),
  users: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PromptDto = z.infer<typeof PromptDto>;

export const PromptVersionDto = z.object({ promptId: z.string(), ...VersionedContent, createdAt: z.string() });
export type PromptVersionDto = z.infer<typeof PromptVersionDto>;
export const PromptVersionList = paginated(PromptVersionDto);

/** GET /prompts/{id}?version=N: that version's content instead of the latest. */
export const PromptGetQuery = z.object({ version: z.coerce.number().int().min(1).max(1_000_000).optional() }).strict();

export const PromptListQuery = PageQuery.extend({
  search: Search,
  type: z.enum(PROMPT_TYPES).optional(),
  /** 'NA': prompts without a scope. */
  scope: z.enum([...PROMPT_SCOPES, 'NA']).optional(),
}).strict();
export const PromptList = paginated(PromptDto);
export type PromptList = z.infer<typeof PromptList>;

/**
 * A prompt as the people who may run it see it: what it is and what it answers, never whom else
 * it is shared with.
 */
export const AvailablePromptDto = PromptDto.pick({
  _id: true,
  name: true,
  description: true,
  type: true,
  expectedFormat: true,
  scope: true,
  isGlobal: true,
  version: true,
});
export type AvailablePromptDto = z.infer<typeof AvailablePromptDto>;
export const AvailablePromptList = paginated(AvailablePromptDto);
export const AvailablePromptQuery = PageQuery.extend({
  search: Search,
  type: z.enum(PROMPT_TYPES).optional(),
  /** HOST_ADMIN only: what that company's people may run (others always get their own company's). */
  companyId: Id.optional(),
}).strict();

/** An analysis pattern: prompts run together, optionally by themselves. */
export const PatternBody = z
  .object({
    name: Name(L.nameMax).refine(noNul, M.noNul),
    description: Text(L.descriptionMax).default(''),
    promptIds: z
      .array(Id)
      .min(1)
      .max(L.patternPromptsMax)
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a prompt'),
    autoRun: z.enum(PATTERN_AUTO_RUN).default('none'),
  })
  .strict();
export type PatternBody = z.infer<typeof PatternBody>;

/** POST: a HOST_ADMIN makes a global pattern (companyId null) or one for a company; an ADMIN's is always their company's. */
export const CreatePatternBody = PatternBody.extend({ companyId: Id.nullable().optional() }).strict();
export type CreatePatternBody = z.infer<typeof CreatePatternBody>;

export const PatternDto = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  promptIds: z.array(z.string()),
  autoRun: z.enum(PATTERN_AUTO_RUN),
  /** null: a global pattern, for every company. */
  companyId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PatternDto = z.infer<typeof PatternDto>;

export const PatternListQuery = PageQuery.extend({
  search: Search,
  /** HOST_ADMIN only: one company's patterns (others see the global ones and their own company's). */
  companyId: Id.optional(),
}).strict();
export const PatternList = paginated(PatternDto);
export type PatternList = z.infer<typeof PatternList>;
