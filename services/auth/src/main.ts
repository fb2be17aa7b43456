import { runStandalone } from '@earshot/kit';
import { authService } from './index';

await runStandalone(authService);
