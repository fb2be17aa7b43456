import { redactedField, type FileTagsAnswer, type TagList } from '@earshot/contracts';
import {
  actorOf,
  badRequest,
  companyScope,
  notFound,
  type Db,
  type Emit,
  type Identity,
  type ServiceContext,
} from '@earshot/kit';
import type { FileConfig } from '../config';
import * as filesRepo from '../repositories/files';
import * as tagsRepo from '../repositories/tags';
import { companyTypes } from './company-types';
import { redactedTags } from './redaction';

/** A set of tags as stored and announced: each once, sorted. */
const tagSet = (tags: Iterable<string>): string[] => [...new Set(tags)].sort();

const sameTags = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

const COMPANY_REQUIRED = 'Name the company with ?companyId=';

/**
 * Tags on recordings. Any member who may see a file may tag it (as they may correct its words);
 * renaming, merging and deleting a tag across the company's recordings is its ADMIN's (or a
 * HOST_ADMIN's, for the company they name). In a b2c company each member works on their own
 * recordings' tags alone, the ADMIN included. Every file whose tags change gets a file.tags_changed.
 */
export class TagService {
  constructor(private readonly ctx: ServiceContext<FileConfig>) {}

  /** Sets a file's whole set of tags (already trimmed and lower-cased by TagName). */
  async setFileTags(identity: Identity, input: { fileId: string; tags: string[] }): Promise<FileTagsAnswer> {
    const owner = await companyTypes.ownerScope(this.ctx.db, identity);
    return this.ctx.transact(async (tx, emit) => {
      const file = await filesRepo.lockFile(tx, input.fileId, companyScope(identity), owner);
      if (!file) throw notFound('File');
      const { tags, redacted } = await redactedTags(tx, file.companyId, input.tags);
      const after = tagSet(tags);
      const before = tagSet(file.tags);
      if (!sameTags(before, after)) {
        await filesRepo.replaceTags(tx, file, before, after);
        emit({
          type: 'file.tags_changed',
          companyId: file.companyId,
          actor: actorOf(identity),
          data: { id: file.id, before: { tags: before }, after: { tags: after } },
        });
      }
      return { fileId: file.id, tags: after, ...redactedField(redacted) };
    });
  }

  /** The tags of the caller's company (a HOST_ADMIN: the one named, or every company's) with their counts. */
  async list(identity: Identity, query: { companyId?: string }): Promise<TagList> {
    return tagsRepo.tagCounts(
      this.ctx.db,
      companyScope(identity, query.companyId),
      await companyTypes.ownerScope(this.ctx.db, identity),
    );
  }

  /**
   * Renames a tag on every recording that has it; into an existing tag, the two merge. Answers the
   * company's tags and how many spans redaction hid in the new name.
   */
  async rename(
    identity: Identity,
    input: { name: string; to: string; companyId?: string },
  ): Promise<{ list: TagList; redacted: number }> {
    const companyId = companyScope(identity, input.companyId) ?? identity.companyId;
    const {
      tags: [to],
      redacted,
    } = companyId ? await redactedTags(this.ctx.db, companyId, [input.to]) : { tags: [input.to], redacted: 0 };
    // The same name (once normalised) changes nothing, but an unknown tag is still a 404.
    const change =
      to === input.name
        ? tagsRepo.taggedFiles
        : (tx: Db, companyId: string, owner: string | null, tag: string) =>
            tagsRepo.renameTag(tx, companyId, owner, tag, to!);
    const list = await this.acrossCompany(identity, input, change, (before) =>
      before.map((tag) => (tag === input.name ? to! : tag)),
    );
    return { list, redacted };
  }

  /** Takes a tag off every recording that has it. */
  async remove(identity: Identity, input: { name: string; companyId?: string }): Promise<TagList> {
    return this.acrossCompany(identity, input, tagsRepo.deleteTag, (before) =>
      before.filter((tag) => tag !== input.name),
    );
  }

  /**
   * One company-wide change of a tag: the files carrying it are locked (so no one retags them in
   * between), changed in one statement, and each announced; a tag no file of the company carries
   * is a 404, whichever company does have it. Answers the company's counts after the change.
   */
  private async acrossCompany(
    identity: Identity,
    input: { name: string; companyId?: string },
    change: (tx: Db, companyId: string, owner: string | null, tag: string) => Promise<tagsRepo.TaggedFile[]>,
    afterOf: (before: string[]) => string[],
  ): Promise<TagList> {
    const companyId = companyScope(identity, input.companyId) ?? identity.companyId;
    if (!companyId) throw badRequest(COMPANY_REQUIRED, [{ field: 'query.companyId', message: COMPANY_REQUIRED }]);
    const owner = await companyTypes.ownerScope(this.ctx.db, identity);
    return this.ctx.transact(async (tx, emit) => {
      await filesRepo.lockTagged(tx, companyId, input.name);
      const touched = await change(tx, companyId, owner, input.name);
      if (touched.length === 0) throw notFound('Tag');
      announce(emit, identity, companyId, touched, afterOf);
      return tagsRepo.tagCounts(tx, companyId, owner);
    });
  }
}

function announce(
  emit: Emit,
  identity: Identity,
  companyId: string,
  touched: tagsRepo.TaggedFile[],
  afterOf: (before: string[]) => string[],
): void {
  for (const { fileId, before: stored } of touched) {
    const before = tagSet(stored);
    const after = tagSet(afterOf(before));
    if (sameTags(before, after)) continue;
    emit({
      type: 'file.tags_changed',
      companyId,
      actor: actorOf(identity),
      data: { id: fileId, before: { tags: before }, after: { tags: after } },
    });
  }
}
