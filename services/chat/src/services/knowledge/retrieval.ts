import type { ResolvedModel } from '@earshot/ai';
import { actorOf, type Identity, type ServiceContext } from '@earshot/kit';
import type { ChatConfig } from '../../config';
import { questionLexemes } from '../../repositories/fts';
import * as knowledgeRepo from '../../repositories/knowledge';
import type { ChunkHit, EmbeddingSet } from '../../repositories/knowledge';
import { encryptionOf, PURPOSES, type CompanyText } from '../encryption';
import { cosine, type Embedder } from './embeddings';

/** Candidates each ranking gives to the fusion. */
const CANDIDATES = 20;
/** Vector sets kept in memory (10,000 chunks of 768 dimensions are about 30 MB). */
const SETS_KEPT = 16;
/** The reciprocal rank fusion constant (Cormack et al.): dampens the weight of the very first ranks. */
const RRF_K = 60;

/** Fuses rankings (best first) of ids: each id scores Σ 1/(k + rank); the best scores first. */
export function reciprocalRankFusion(rankings: readonly (readonly string[])[], k = RRF_K): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

interface CachedSet {
  stamp: string;
  ids: string[];
  vectors: Float32Array[];
  norms: Float64Array;
}

/** How the passages were found: full-text search alone, or fused with the vectors of `model`. */
export interface Retrieved {
  hits: ChunkHit[];
  /** The embeddings model whose vectors answered (null: full-text search only). */
  embeddingsModelId: string | null;
}

/**
 * The passages of a GPT's files that best answer a question: PostgreSQL full-text search always;
 * with an embeddings model whose vectors cover every ready chunk of the GPT, also the nearest
 * vectors to the question's (cosine in this process over the GPT's candidates: PGlite has no
 * pgvector), the two rankings fused by reciprocal rank fusion. The set that answers is the
 * configured model's when complete, else an older complete set whose model is still configured,
 * so a change of model never leaves a window without vector answers while re-embedding runs.
 */
export class KnowledgeRetrieval {
  // The vectors of a GPT's set, and which of its sets are complete, kept between questions until
  // its files or vectors change (the GPT's stamp).
  private readonly cache = new Map<string, CachedSet>();
  private readonly complete = new Map<string, { stamp: string; sets: EmbeddingSet[] }>();

  constructor(
    private readonly ctx: ServiceContext<ChatConfig>,
    private readonly embedder: Embedder,
  ) {}

  /**
   * The passages that best answer a question, opened: a company GPT's chunks may be stored sealed
   * (its company's encryption on), found through the blind index of the question's words.
   */
  async search(identity: Identity, customGptId: string, question: string, limit: number): Promise<Retrieved> {
    const text = await encryptionOf(this.ctx).textOf(
      this.ctx.db,
      await knowledgeRepo.companyOfGpt(this.ctx.db, customGptId),
    );
    const found = await this.find(identity, customGptId, question, limit, text);
    return {
      ...found,
      hits: found.hits.map((h) => ({
        ...h,
        heading: h.heading === null ? null : text.open(PURPOSES.chunkHeading, h.heading),
        text: text.open(PURPOSES.chunkText, h.text),
      })),
    };
  }

  private async find(
    identity: Identity,
    customGptId: string,
    question: string,
    limit: number,
    text: CompanyText,
  ): Promise<Retrieved> {
    const blind = text.blind() ? text.terms(await questionLexemes(this.ctx.db, question)) : null;
    const fts = await knowledgeRepo.searchChunks(this.ctx.db, customGptId, question, CANDIDATES, blind);
    const stamp = await knowledgeRepo.gptStamp(this.ctx.db, customGptId);
    const answering = await this.answeringSet(customGptId, stamp);
    if (!answering) return { hits: fts.slice(0, limit), embeddingsModelId: null };
    let nearest: string[];
    try {
      nearest = await this.nearest(identity, { customGptId, stamp }, answering.set, answering.model, question);
    } catch (error) {
      // The provider failing must not take answers away: full-text search still answers.
      this.ctx.logger.warn(
        { err: error, customGptId },
        'question could not be embedded; full-text search answers alone',
      );
      return { hits: fts.slice(0, limit), embeddingsModelId: null };
    }
    const fused = reciprocalRankFusion([fts.map((h) => h.id), nearest]).slice(0, limit);
    const byId = new Map(fts.map((h) => [h.id, h]));
    const missing = fused.filter((id) => !byId.has(id));
    for (const hit of await knowledgeRepo.chunksByIds(this.ctx.db, missing)) byId.set(hit.id, hit);
    return {
      hits: fused.map((id) => byId.get(id)).filter((h): h is ChunkHit => h !== undefined),
      embeddingsModelId: answering.set.modelId,
    };
  }

  /** The complete set to answer with and its model (still configured), or null. */
  private async answeringSet(
    customGptId: string,
    stamp: string,
  ): Promise<{ set: EmbeddingSet; model: ResolvedModel } | null> {
    let known = this.complete.get(customGptId);
    if (known?.stamp !== stamp)
      this.complete.set(
        customGptId,
        (known = { stamp, sets: await knowledgeRepo.completeSets(this.ctx.db, customGptId) }),
      );
    const { sets } = known;
    if (sets.length === 0) return null;
    const current = await this.embedder.current();
    const preferred = current ? sets.find((s) => s.modelId === current.modelId) : undefined;
    if (preferred && current) return { set: preferred, model: current };
    for (const set of sets) {
      const model = await this.embedder.byId(set.modelId);
      if (model) return { set, model };
    }
    return null;
  }

  private async nearest(
    identity: Identity,
    gpt: { customGptId: string; stamp: string },
    set: EmbeddingSet,
    model: ResolvedModel,
    question: string,
  ): Promise<string[]> {
    const { customGptId } = gpt;
    const {
      vectors: [query],
      tokens,
    } = await this.embedder.embed(model, [question]);
    await this.ctx.transact(async (_tx, emit) => {
      emit({
        type: 'embeddings.used',
        companyId: identity.companyId,
        actor: actorOf(identity),
        data: { modelId: model.modelId, tokens, purpose: 'query', customGptId, fileId: null },
      });
    });
    if (!query || query.length !== set.dimension) return [];
    const cached = await this.vectors(gpt, set);
    const scored = cached.ids.map((id, i) => ({ id, score: cosine(query, cached.vectors[i]!, cached.norms[i]!) }));
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, CANDIDATES).map((s) => s.id);
  }

  private async vectors(
    { customGptId, stamp }: { customGptId: string; stamp: string },
    set: EmbeddingSet,
  ): Promise<CachedSet> {
    const key = `${customGptId}:${set.modelId}:${set.dimension}`;
    const hit = this.cache.get(key);
    if (hit?.stamp === stamp) return hit;
    const rows = await knowledgeRepo.vectorsOf(this.ctx.db, customGptId, set);
    const vectors = rows.map((r) => Float32Array.from(r.vector));
    const norms = Float64Array.from(vectors, (v) => Math.sqrt(v.reduce((n, x) => n + x * x, 0)));
    const fresh = { stamp, ids: rows.map((r) => r.chunkId), vectors, norms };
    this.cache.delete(key);
    // The least recently refreshed sets go first: memory stays bounded however many GPTs there are.
    if (this.cache.size >= SETS_KEPT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, fresh);
    return fresh;
  }
}
