// What the platform has installed, read by the pages that depend on it.
export { platformApi, useChatModelsQuery, useMailDeliveryQuery, useSpeechReadinessQuery } from './platform-api';
