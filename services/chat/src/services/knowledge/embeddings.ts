import { outboundPolicy, providerClient, type AiCatalogue, type ResolvedModel } from '@earshot/ai';
import type { ServiceContext } from '@earshot/kit';
import type { ChatConfig } from '../../config';

/** Texts per embeddings request: well inside every OpenAI-compatible server's input limit. */
export const EMBED_BATCH = 64;
const EMBED_RETRIES = 2;
/** Characters of a chunk sent to be embedded (a chunk is about 1,000; headings add a little). */
const EMBED_CHARS = 2_000;

export interface Embedded {
  vectors: number[][];
  tokens: number;
}

/** Calls the configured embeddings model through the OpenAI-compatible embeddings endpoint. */
export class Embedder {
  constructor(
    private readonly ctx: ServiceContext<ChatConfig>,
    private readonly catalogue: AiCatalogue,
  ) {}

  /** The embeddings model now configured (the default, else the oldest enabled), or null: full-text search only. */
  current(): Promise<ResolvedModel | null> {
    return this.catalogue.resolve('embeddings');
  }

  /** That model when it is still configured and enabled (old vectors can only be queried with their own model). */
  byId(modelId: string): Promise<ResolvedModel | null> {
    return this.catalogue.resolve('embeddings', modelId);
  }

  async embed(model: ResolvedModel, texts: readonly string[], signal?: AbortSignal): Promise<Embedded> {
    const client = await providerClient(model.endpoint, outboundPolicy(this.ctx.config), this.ctx.config.AI_TIMEOUT_MS);
    const response = await client.embeddings.create(
      { model: model.model, input: texts.map((t) => t.slice(0, EMBED_CHARS)), encoding_format: 'float' },
      // A reused keep-alive connection the server just closed fails at once: try again (the SDK
      // backs off and retries connection errors, 429 and 5xx only, never a refused key).
      { signal, maxRetries: EMBED_RETRIES },
    );
    const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    if (vectors.length !== texts.length)
      throw new Error(`The embeddings model gave ${vectors.length} vectors for ${texts.length} texts`);
    // Providers that report no usage are counted at about four characters a token.
    const tokens =
      response.usage?.prompt_tokens ?? Math.ceil(texts.reduce((n, t) => n + Math.min(t.length, EMBED_CHARS), 0) / 4);
    return { vectors, tokens };
  }
}

/** Cosine similarity of two vectors of the same length, `b`'s norm given (it is kept with the stored vectors). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>, normB: number): number {
  let dot = 0;
  let na = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    dot += x * b[i]!;
    na += x * x;
  }
  const denominator = Math.sqrt(na) * normB;
  return denominator === 0 ? 0 : dot / denominator;
}
