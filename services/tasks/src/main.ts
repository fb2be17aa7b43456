import { runStandalone } from '@earshot/kit';
import { tasksService } from './index';

await runStandalone(tasksService);
