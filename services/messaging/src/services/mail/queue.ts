import type { EmailLanguage, EmailTemplateType } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import type { MailMessageRow } from '../../db/schema';
import type { MailVariables } from './render';

// What the notifications need of the mail service, apart from it: MailService builds its
// MailNotifications and hands itself over, so the two modules importing each other was a cycle.

export interface QueueRequest {
  companyId: string | null;
  type: EmailTemplateType;
  /** The person's language when known; else the company's; else English. */
  language?: EmailLanguage | null;
  to: string;
  /**
   * The platform's person it is sent to: the mail is then theirs to read in their inbox (its text
   * part is kept for that). Never set for a mail that carries a sign-in link.
   */
  userId?: string | null;
  /** The console page the call to action opens: {{link}} is its absolute address, the inbox links the path. */
  path?: string;
  variables: MailVariables;
  /** Variables that are calendar days ('2026-11-30'): written as the mail's language writes them. */
  days?: Record<string, string>;
}

/** Queues a mail inside the transaction of the fact that causes it (MailService.queue). */
export interface MailQueue {
  queue(tx: Db, request: QueueRequest): Promise<MailMessageRow>;
}
