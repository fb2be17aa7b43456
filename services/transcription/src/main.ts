import { runStandalone } from '@earshot/kit';
import { transcriptionService } from './index';

await runStandalone(transcriptionService);
