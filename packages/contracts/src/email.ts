// E-mail template types and the variables each may use (zod-free: the web's template editor lists
// them). A template that names any other variable is refused at save, so a typo cannot reach a
// customer as a literal "{{user.frstName}}".
export const EMAIL_TEMPLATE_TYPES = [
  'password_reset',
  'invitation',
  'two_step_enabled',
  'two_step_disabled',
  'transcript_ready',
  'transcription_failed',
  'credits_low',
  'budget_reached',
  'task_assigned',
  'task_due',
  'webhook_disabled',
] as const;
export type EmailTemplateType = (typeof EMAIL_TEMPLATE_TYPES)[number];

export const EMAIL_LANGUAGES = ['en', 'fr', 'et', 'lv'] as const;
export type EmailLanguage = (typeof EMAIL_LANGUAGES)[number];

const PERSON = ['user.firstName', 'user.lastName', 'user.email', 'company.name'] as const;

export const EMAIL_TEMPLATE_VARIABLES: Record<EmailTemplateType, readonly string[]> = {
  password_reset: [...PERSON, 'link', 'expiresInMinutes'],
  invitation: [...PERSON, 'link', 'expiresInDays'],
  two_step_enabled: [...PERSON, 'date'],
  two_step_disabled: [...PERSON, 'date'],
  transcript_ready: [...PERSON, 'recording.name', 'link'],
  transcription_failed: [...PERSON, 'recording.name', 'reason', 'link'],
  credits_low: [...PERSON, 'credits.balance', 'credits.threshold', 'link'],
  budget_reached: [...PERSON, 'credits.budget', 'link'],
  task_assigned: [...PERSON, 'task.title', 'task.dueDate', 'assignedBy', 'link'],
  task_due: [...PERSON, 'task.title', 'task.dueDate', 'link'],
  webhook_disabled: [...PERSON, 'webhook.url', 'reason', 'link'],
};

/** `{{ name }}` as written in a template; the name is group 1. */
export const TEMPLATE_VARIABLE = /\{\{\s*([A-Za-z][\w.]*)\s*\}\}/g;

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
