// What can be priced (each enabled model by its purpose, and the transcription engines), the
// units that apply to each, and the price and currency forms. A lazy admin chunk: the forms
// validate with the contracts' fields (after the form's own, translated rule).
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { CurrencyBody, PriceCreateBody, type PriceDto } from '@earshot/contracts';
import type { PriceUnit } from '@earshot/contracts/constants';
import { creditsText } from '../../entities/credits';

export type { PriceDto };

/** The speech-to-text engines that are charged by the minute even without a configured model. */
const ENGINES = ['pocketsphinx', 'whisper', 'openai'] as const;
type Engine = (typeof ENGINES)[number];

export type Purpose = 'chat' | 'speech-to-text' | 'embeddings' | 'engine';

export const UNITS_BY_PURPOSE: Record<Purpose, readonly PriceUnit[]> = {
  chat: ['input_1k', 'output_1k'],
  'speech-to-text': ['audio_minute'],
  embeddings: ['embedding_1k'],
  engine: ['audio_minute'],
};

/** A row of the prices table: a model (by id) or an engine (by name). */
export interface Subject {
  key: string;
  name: string;
  purpose: Purpose;
  modelId: string | null;
  engine: Engine | null;
}

/** A subject as the page names it: an engine by its translated name, a model by its own. */
export function subjectName(subject: Subject, t: TFunction): string {
  return subject.engine ? t(`pricing.engines.${subject.engine}`) : subject.name;
}

export function subjectsOf(
  models: ReadonlyArray<{ _id: string; name: string; purpose: Exclude<Purpose, 'engine'> }>,
): Subject[] {
  return [
    ...models.map((model) => ({
      key: `model:${model._id}`,
      name: model.name,
      purpose: model.purpose,
      modelId: model._id,
      engine: null,
    })),
    ...ENGINES.map((engine) => ({
      key: `engine:${engine}`,
      name: engine,
      purpose: 'engine' as const,
      modelId: null,
      engine,
    })),
  ];
}

export function pricesOf(subject: Subject, prices: readonly PriceDto[]): Partial<Record<PriceUnit, PriceDto>> {
  const mine = prices.filter((price) =>
    subject.modelId ? price.modelId === subject.modelId : price.engine === subject.engine,
  );
  return Object.fromEntries(mine.map((price) => [price.unit, price]));
}

export const PriceFormSchema = z.object({
  unit: PriceCreateBody.shape.unit,
  credits: creditsText('creditsInvalid').pipe(PriceCreateBody.shape.credits),
  // datetime-local: the person's own clock; blank = now.
  effectiveFrom: z
    .string()
    .refine((value) => value === '' || new Date(value).getTime() >= Date.now() - 60_000, 'pastDate'),
});
export type PriceFormValues = z.input<typeof PriceFormSchema>;

export function priceBody(subject: Subject, values: z.output<typeof PriceFormSchema>): PriceCreateBody {
  return {
    ...(subject.modelId ? { modelId: subject.modelId } : { engine: subject.engine ?? undefined }),
    unit: values.unit,
    credits: values.credits,
    ...(values.effectiveFrom ? { effectiveFrom: new Date(values.effectiveFrom).toISOString() } : {}),
  };
}

export const CurrencyFormSchema = z.object({
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'codeInvalid')
    .pipe(CurrencyBody.shape.currency),
  creditRate: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, 'rateInvalid')
    .refine((value) => Number(value) > 0, 'rateInvalid')
    .transform(Number)
    .pipe(CurrencyBody.shape.creditRate),
});
export type CurrencyFormValues = z.input<typeof CurrencyFormSchema>;

/** Where a price stands on its subject's time line: the newest one not in the future is in force. */
export function priceStates(
  history: readonly PriceDto[],
  now = Date.now(),
): Map<string, 'scheduled' | 'current' | 'past'> {
  const states = new Map<string, 'scheduled' | 'current' | 'past'>();
  const seen = new Set<PriceUnit>();
  for (const price of history) {
    if (new Date(price.effectiveFrom).getTime() > now) states.set(price._id, 'scheduled');
    else if (seen.has(price.unit)) states.set(price._id, 'past');
    else {
      states.set(price._id, 'current');
      seen.add(price.unit);
    }
  }
  return states;
}
