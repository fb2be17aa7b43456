import { runStandalone } from '@earshot/kit';
import { fileService } from './index';

await runStandalone(fileService);
