import { runStandalone } from '@earshot/kit';
import { chatService } from './index';

await runStandalone(chatService);
