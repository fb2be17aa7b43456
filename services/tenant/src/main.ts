import { runStandalone } from '@earshot/kit';
import { tenantService } from './index';

await runStandalone(tenantService);
