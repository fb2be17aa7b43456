export { hashedEmbedding, startFakeOpenAI, type FakeOpenAI, type FakeReply, type RecordedRequest } from './fake-openai';
