import type { ServiceModule } from '@earshot/kit';
import { auditService } from '@earshot/audit-service';
import { authService } from '@earshot/auth-service';
import { billingService } from '@earshot/billing-service';
import { chatService } from '@earshot/chat-service';
import { fileService } from '@earshot/file-service';
import { messagingService } from '@earshot/messaging-service';
import { promptService } from '@earshot/prompt-service';
import { tasksService } from '@earshot/tasks-service';
import { tenantService } from '@earshot/tenant-service';
import { transcriptionService } from '@earshot/transcription-service';
import { webhooksService } from '@earshot/webhooks-service';

/** Every service that holds a person's data, so each answers a privacy job (billing: the others need it). */
export const PRIVACY_STACK: readonly ServiceModule[] = [
  authService,
  tenantService,
  billingService,
  fileService,
  transcriptionService,
  chatService,
  promptService,
  auditService,
  messagingService,
  tasksService,
  webhooksService,
];
