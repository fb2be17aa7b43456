import { runStandalone } from '@earshot/kit';
import { messagingService } from './index';

await runStandalone(messagingService);
