import { runStandalone } from '@earshot/kit';
import { webhooksService } from './index';

await runStandalone(webhooksService);
