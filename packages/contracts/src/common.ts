import { z } from 'zod';
import { PAGE_SIZE_MAX } from './constants';

export const Id = z.string().uuid();
/** The one id check outside a schema (event data from older producers, query lists). */
export const isId = (value: unknown): value is string => Id.safeParse(value).success;
export const IdParams = z.object({ id: Id }).strict();

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(20),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function paginated<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });
}

export const MessageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageBody>;
export const DropdownItem = z.object({ _id: z.string(), name: z.string() });
export const Dropdown = z.array(DropdownItem);

/** Strings a person typed: trimmed, bounded, never empty. */
export const Name = (max = 120) => z.string().trim().min(1).max(max);
export const Email = z.string().trim().toLowerCase().max(254).email();
