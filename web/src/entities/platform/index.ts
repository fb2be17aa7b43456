// What the platform has installed, read by the pages that depend on it, and the platform
// administrator's first-run checklist built from the same facts (a lazy chunk of its own: only
// HOST_ADMIN sees it).
import { lazy } from 'react';

export { platformApi, useChatModelsQuery, useMailDeliveryQuery, useSpeechReadinessQuery } from './platform-api';

export const FirstRunChecklist = lazy(() => import('./first-run-checklist'));
