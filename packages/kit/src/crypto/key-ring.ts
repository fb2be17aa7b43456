import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { SYSTEM_ACTOR, isId, type EventOf } from '@earshot/contracts';
import type { Db } from '../db/database';
import type { Migration } from '../db/migrate';
import { on, type Emit, type HandlerSpec } from '../bus/handlers';
import { ConfigError } from '../config';
import { INTERNAL_TOKEN_HEADER } from '../api-keys';
import type { CompanyKeys } from '../storage/encrypting';
import { KeyUnavailableError, MasterKeyMissingError, MasterKeys } from './master-key';

/** How long an unwrapped data key is reused in memory; a key destroyed elsewhere stops working within it. */
const CACHE_MS = 30_000;

/** The table of CompanyKeyRing, in the schema of each service that stores encrypted data. */
export const companyKeysMigration: Migration = {
  name: 'kit_0003_company_keys',
  sql: `create table company_keys (
          company_id uuid primary key,
          -- The data key wrapped by the master key (mk1:<master key id>:...); null only while no master key is configured.
          wrapped_key text,
          master_key_id text,
          encrypt boolean not null,
          progress_state text not null default 'idle' check (progress_state in ('idle', 'running', 'done')),
          progress_done integer not null default 0,
          progress_total integer not null default 0,
          updated_at timestamptz not null)`,
};

/**
 * What `destroy` leaves of a company's key: the fact that there was one. The storage wrapper
 * skips the header read for a company that never had a key (its objects are all plain), and must
 * still recognise an encrypted copy of a deleted company's object (put back from a backup) as
 * encrypted, to refuse it rather than serve ciphertext as if it were audio.
 */
export const companyKeyTombstonesMigration: Migration = {
  name: 'kit_0004_company_key_tombstones',
  sql: `create table company_key_tombstones (
          company_id uuid primary key,
          destroyed_at timestamptz not null)`,
};

/** Every migration of CompanyKeyRing's tables, in order: a service that keeps a ring registers all of them. */
export const companyKeysMigrations: readonly Migration[] = [companyKeysMigration, companyKeyTombstonesMigration];

export interface EncryptionProgress {
  state: 'idle' | 'running' | 'done';
  done: number;
  total: number;
}

interface KeyRow {
  company_id: string;
  wrapped_key: string | null;
  encrypt: boolean;
  progress_state: EncryptionProgress['state'];
  progress_done: number;
  progress_total: number;
}

interface KeyEntry {
  key: Buffer | null;
  encrypt: boolean;
  /** A key exists or existed (tombstone): objects of the company may be stored encrypted. */
  known: boolean;
}

/**
 * One service's data keys, one per company, wrapped by the master key. Each service that
 * stores encrypted data keeps its own table `company_keys` in its own schema (migration below), so
 * no service reads another's keys, and deleting a company destroys every copy through each
 * service's company.deleted handler. A row also holds the company's encryption switch (from
 * company.policies_changed) and the progress of encrypting what was stored before it was on.
 */
export class CompanyKeyRing {
  readonly migrations = companyKeysMigrations;

  private readonly cache = new Map<string, KeyEntry & { at: number }>();

  constructor(
    private readonly schema: string,
    private readonly service: string,
    readonly master: MasterKeys,
  ) {}

  private get table() {
    return sql`${sql.identifier(this.schema)}.company_keys`;
  }

  private get tombstones() {
    return sql`${sql.identifier(this.schema)}.company_key_tombstones`;
  }

  private async row(db: Db, companyId: string): Promise<KeyRow | null> {
    const result = (await db.execute(sql`select * from ${this.table} where company_id = ${companyId}`)) as unknown as {
      rows: KeyRow[];
    };
    return result.rows[0] ?? null;
  }

  /**
   * Refuses to start, with a message saying what to set, when data keys exist but no master key
   * is configured (they could not be unwrapped: every encrypted object would be unreadable).
   */
  async assertStartable(db: Db): Promise<void> {
    if (this.master.configured) return;
    const result = (await db.execute(
      sql`select count(*)::int as n from ${this.table} where wrapped_key is not null or encrypt`,
    )) as unknown as { rows: { n: number }[] };
    if ((result.rows[0]?.n ?? 0) > 0) {
      throw new ConfigError([
        `ENCRYPTION_MASTER_KEY: the ${this.service} service holds encrypted data of ${result.rows[0]!.n} company(ies); set ENCRYPTION_MASTER_KEY or ENCRYPTION_MASTER_KEY_FILE to the master key they were wrapped with`,
      ]);
    }
  }

  /** company.policies_changed: the encryption switch; turning it on creates the data key at once. */
  handlers(): HandlerSpec[] {
    return [
      on('company.policies_changed', (event, tx) => this.applyPolicies(tx, event), {
        entity: (event) => event.data.id,
      }),
    ];
  }

  private async applyPolicies(tx: Db, event: EventOf<'company.policies_changed'>): Promise<void> {
    const companyId = event.data.id;
    if (!isId(companyId)) return;
    const encrypt = event.data.after.encryption;
    const existing = await this.row(tx, companyId);
    this.cache.delete(companyId);
    if (!existing && !encrypt) return;
    const wrapped =
      existing?.wrapped_key ??
      (encrypt && this.master.configured ? this.master.wrap(companyId, randomBytes(32)) : null);
    const masterId = wrapped ? MasterKeys.idOfWrapped(wrapped) : null;
    // Turned on: what was stored before is encrypted by the background pass, which starts from 'running'.
    const state = encrypt && existing?.encrypt !== true ? 'running' : (existing?.progress_state ?? 'idle');
    await tx.execute(sql`
      insert into ${this.table} (company_id, wrapped_key, master_key_id, encrypt, progress_state, updated_at)
      values (${companyId}, ${wrapped}, ${masterId}, ${encrypt}, ${state}, ${event.occurredAt})
      on conflict (company_id) do update set wrapped_key = excluded.wrapped_key, master_key_id = excluded.master_key_id,
        encrypt = excluded.encrypt, progress_state = excluded.progress_state, updated_at = excluded.updated_at
      where ${this.table}.updated_at <= excluded.updated_at`);
  }

  /** Whether new data of the company is to be stored encrypted. */
  async encrypts(db: Db, companyId: string): Promise<boolean> {
    return (await this.cached(db, companyId)).encrypt;
  }

  /** The company's data key, or null when it has none (never had encryption on, or it was destroyed). */
  async dataKey(db: Db, companyId: string): Promise<Buffer | null> {
    const entry = await this.cached(db, companyId);
    if (entry.encrypt && !entry.key) throw new MasterKeyMissingError();
    return entry.key;
  }

  /**
   * Whether objects of the company may be stored encrypted: it has a key, or had one (destroyed).
   * False for a company that never turned encryption on, whose objects need no header read.
   */
  async mayHaveEncrypted(db: Db, companyId: string): Promise<boolean> {
    return (await this.cached(db, companyId)).known;
  }

  /**
   * The ring as the encrypting storage asks it. An object key whose first segment is no company
   * id (a platform object, such as a platform assistant's knowledge file) is never encrypted.
   */
  companyKeys(db: Db): CompanyKeys {
    return {
      encrypts: async (companyId) => isId(companyId) && this.encrypts(db, companyId),
      dataKey: async (companyId) => (isId(companyId) ? this.dataKey(db, companyId) : null),
      mayHaveEncrypted: async (companyId) => isId(companyId) && this.mayHaveEncrypted(db, companyId),
    };
  }

  /**
   * The company's key as stored, still wrapped by the master key (for another process of the same
   * master key: the file service's internal route), 'destroyed', or null when it never had one.
   */
  async wrapped(db: Db, companyId: string): Promise<WrappedCompanyKey | 'destroyed' | null> {
    // Makes the key of a company turned on while no master key was configured, as reads do.
    await this.cached(db, companyId);
    const row = await this.row(db, companyId);
    if (row) return { encrypt: row.encrypt, wrappedKey: row.wrapped_key };
    return (await this.destroyed(db, companyId)) ? 'destroyed' : null;
  }

  private async destroyed(db: Db, companyId: string): Promise<boolean> {
    const result = (await db.execute(
      sql`select 1 from ${this.tombstones} where company_id = ${companyId}`,
    )) as unknown as { rows: unknown[] };
    return result.rows.length > 0;
  }

  private async cached(db: Db, companyId: string): Promise<KeyEntry> {
    const hit = this.cache.get(companyId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit;
    let row = await this.row(db, companyId);
    // Turned on while no master key was configured: the key is made once there is one.
    if (row?.encrypt && !row.wrapped_key && this.master.configured) {
      const wrapped = this.master.wrap(companyId, randomBytes(32));
      await db.execute(
        sql`update ${this.table} set wrapped_key = ${wrapped}, master_key_id = ${this.master.currentId} where company_id = ${companyId} and wrapped_key is null`,
      );
      row = await this.row(db, companyId);
    }
    const entry = {
      key: row?.wrapped_key ? this.master.unwrap(companyId, row.wrapped_key) : null,
      encrypt: row?.encrypt ?? false,
      known: row !== null || (await this.destroyed(db, companyId)),
      at: Date.now(),
    };
    this.cache.set(companyId, entry);
    return entry;
  }

  /**
   * Crypto-shredding: the company's data key is deleted in the caller's transaction, before its
   * data is removed, and company.key_destroyed says so (the audit log keeps it). After this commit
   * every encrypted copy of the company's data is unreadable, wherever it is. A tombstone keeps the
   * fact that the company had a key, so such a copy is still known to be encrypted (and refused).
   */
  async destroy(tx: Db, companyId: string, emit: Emit, actor = SYSTEM_ACTOR): Promise<void> {
    this.cache.delete(companyId);
    const result = (await tx.execute(
      sql`delete from ${this.table} where company_id = ${companyId} returning wrapped_key`,
    )) as unknown as { rows: { wrapped_key: string | null }[] };
    if (result.rows.length) {
      await tx.execute(
        sql`insert into ${this.tombstones} (company_id, destroyed_at) values (${companyId}, now()) on conflict (company_id) do nothing`,
      );
    }
    if (result.rows.some((row) => row.wrapped_key)) {
      emit({
        type: 'company.key_destroyed',
        companyId,
        actor,
        data: { companyId, service: this.service, reason: 'company_deleted' },
      });
    }
  }

  async progress(db: Db, companyId: string): Promise<EncryptionProgress> {
    const row = await this.row(db, companyId);
    return { state: row?.progress_state ?? 'idle', done: row?.progress_done ?? 0, total: row?.progress_total ?? 0 };
  }

  /** Companies whose existing data the background pass still has to encrypt. */
  async pending(db: Db): Promise<string[]> {
    const result = (await db.execute(
      sql`select company_id from ${this.table} where encrypt and progress_state = 'running' and wrapped_key is not null`,
    )) as unknown as { rows: { company_id: string }[] };
    return result.rows.map((row) => row.company_id);
  }

  async saveProgress(db: Db, companyId: string, progress: EncryptionProgress): Promise<void> {
    await db.execute(
      sql`update ${this.table} set progress_state = ${progress.state}, progress_done = ${progress.done}, progress_total = ${progress.total} where company_id = ${companyId} and encrypt`,
    );
  }

  /**
   * Master-key rotation: every data key wrapped by another master key (the previous one, given as
   * ENCRYPTION_PREVIOUS_MASTER_KEY) is rewrapped by the current one. The data is not touched.
   * Returns how many keys were rewrapped.
   */
  async rotate(db: Db): Promise<number> {
    if (!this.master.configured)
      throw new MasterKeyMissingError('No master key to rotate to: set ENCRYPTION_MASTER_KEY');
    const result = (await db.execute(
      sql`select company_id, wrapped_key from ${this.table} where wrapped_key is not null and master_key_id is distinct from ${this.master.currentId}`,
    )) as unknown as { rows: { company_id: string; wrapped_key: string }[] };
    for (const row of result.rows) {
      const wrapped = this.master.wrap(row.company_id, this.master.unwrap(row.company_id, row.wrapped_key));
      await db.execute(
        sql`update ${this.table} set wrapped_key = ${wrapped}, master_key_id = ${this.master.currentId} where company_id = ${row.company_id} and wrapped_key = ${row.wrapped_key}`,
      );
    }
    this.cache.clear();
    return result.rows.length;
  }
}

export interface WrappedCompanyKey {
  encrypt: boolean;
  /** `mk1:<master key id>:...`; null only while the owner has no master key configured. */
  wrappedKey: string | null;
}

/** The file service's internal route for a company's audio key (distributed mode, never behind the gateway). */
export const COMPANY_AUDIO_KEY_PATH = '/internal/files/companies/:companyId/key';
/** Its answer: the key still wrapped (each process unwraps it with its own master key), never the data key. */
export const CompanyKeyAnswer = z.object({
  encrypt: z.boolean(),
  wrappedKey: z.string().nullable(),
  destroyed: z.boolean(),
});
export type CompanyKeyAnswer = z.infer<typeof CompanyKeyAnswer>;

/**
 * The audio keys of a process without the file service's ring (the transcription service and its
 * workers in distributed mode): the file service's internal route answers a company's wrapped key
 * and switch, unwrapped here with this process's master key (the same ENCRYPTION_MASTER_KEY) and
 * kept for CACHE_MS like a ring's. 404 is a company that never had a key (its objects are plain);
 * a destroyed key is no key: an encrypted object of that company fails with KeyUnavailableError.
 * Never follows a redirect, so the token stays with the file service.
 */
export function remoteCompanyKeys(baseUrl: string, token: string, master: MasterKeys, timeoutMs = 5000): CompanyKeys {
  const origin = baseUrl.replace(/\/+$/, '');
  const cache = new Map<string, KeyEntry & { at: number }>();
  const fetchEntry = async (companyId: string): Promise<KeyEntry> => {
    const response = await fetch(
      `${origin}${COMPANY_AUDIO_KEY_PATH.replace(':companyId', encodeURIComponent(companyId))}`,
      {
        headers: { [INTERNAL_TOKEN_HEADER]: token },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      },
    );
    if (response.status === 404) {
      await response.body?.cancel();
      return { key: null, encrypt: false, known: false };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new KeyUnavailableError(
        `The file service did not answer the audio key of company ${companyId} (${response.status})`,
      );
    }
    const answer = CompanyKeyAnswer.parse(await response.json());
    if (answer.encrypt && !answer.wrappedKey)
      throw new MasterKeyMissingError(
        "This company's recordings are encrypted at rest, but the file service has no master key configured: set ENCRYPTION_MASTER_KEY (or ENCRYPTION_MASTER_KEY_FILE) on it and restart",
      );
    return {
      key: answer.wrappedKey ? master.unwrap(companyId, answer.wrappedKey) : null,
      encrypt: answer.encrypt,
      known: true,
    };
  };
  const entry = async (companyId: string): Promise<KeyEntry> => {
    const hit = cache.get(companyId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit;
    const fresh = { ...(await fetchEntry(companyId)), at: Date.now() };
    cache.set(companyId, fresh);
    return fresh;
  };
  return {
    encrypts: async (companyId) => (await entry(companyId)).encrypt,
    dataKey: async (companyId) => (await entry(companyId)).key,
    mayHaveEncrypted: async (companyId) => (await entry(companyId)).known,
  };
}

const shared = new WeakMap<object, CompanyKeyRing>();

/**
 * The audio key ring of a process (all-in-one): the file service, which owns the recordings,
 * registers its ring; the transcription service, which reads and rewrites the same objects in
 * the same process, uses it rather than keeping keys of its own for the same bytes.
 */
export function shareAudioKeyRing(database: object, ring: CompanyKeyRing): void {
  shared.set(database, ring);
}

export function sharedAudioKeyRing(database: object): CompanyKeyRing | undefined {
  return shared.get(database);
}
