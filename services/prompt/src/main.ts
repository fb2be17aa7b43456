import { runStandalone } from '@earshot/kit';
import { promptService } from './index';

await runStandalone(promptService);
