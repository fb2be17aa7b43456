// The inbox's kinds as the screen shows them. The record is keyed by the contract's InboxKind, so a
// kind added to the contract fails to compile here until it has an icon (and i18n, a label).
import type { InboxItemDto, InboxKind } from '@earshot/contracts';
import type { IconName } from '../../components/icons';

export type InboxItem = InboxItemDto;

export const KIND_ICON: Record<InboxKind, IconName> = {
  task_assigned: 'task',
  task_due: 'calendar',
  analysis_finished: 'sparkles',
  mention: 'user',
  transcription_failed: 'transcript',
  credits_threshold: 'money',
  cap_threshold: 'money',
  webhook_disabled: 'globe',
  email: 'mail',
};

export const KINDS = Object.keys(KIND_ICON) as InboxKind[];

export function isInboxKind(value: string | null): value is InboxKind {
  return value !== null && (KINDS as string[]).includes(value);
}
