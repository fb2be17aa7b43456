import { runStandalone } from '@earshot/kit';
import { billingService } from './index';

await runStandalone(billingService);
