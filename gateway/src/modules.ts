import type { ServiceModule } from '@earshot/kit';
import { authService } from '@earshot/auth-service';
import { tenantService } from '@earshot/tenant-service';
import { billingService } from '@earshot/billing-service';
import { fileService } from '@earshot/file-service';
import { transcriptionService } from '@earshot/transcription-service';
import { chatService } from '@earshot/chat-service';
import { promptService } from '@earshot/prompt-service';
import { auditService } from '@earshot/audit-service';
import { messagingService } from '@earshot/messaging-service';
import { tasksService } from '@earshot/tasks-service';
import { webhooksService } from '@earshot/webhooks-service';

/** Every service, in start order: audit first so it sees every event from the beginning. */
export const ALL_SERVICES: readonly ServiceModule[] = [
  auditService,
  tenantService,
  // After the tenant: on an upgrade, it takes over the pricing and credit tables the tenant's migrations leave.
  billingService,
  authService,
  fileService,
  transcriptionService,
  promptService,
  chatService,
  messagingService,
  tasksService,
  webhooksService,
] as ServiceModule[];
