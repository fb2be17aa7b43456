import { runStandalone } from '@earshot/kit';
import { auditService } from './index';

await runStandalone(auditService);
