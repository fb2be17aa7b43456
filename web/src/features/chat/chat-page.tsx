import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { CHAT_TRANSCRIPT_PARAM } from '@earshot/contracts/constants';
import { errorMessage } from '../../lib/api';
import { roleOf } from '../../lib/stored-user';
import { useAppSelector } from '../../lib/store';
import { FirstRunChecklist, useChatModelsQuery } from '../../entities/platform';
import {
  useConversationsAboutQuery,
  useCreateConversationMutation,
  useFeedbackMutation,
  useMessagesQuery,
} from './chat-api';
import { ChatInput } from './chat-input';
import { ConversationList } from './conversation-list';
import { MessageThread } from './message-thread';
import { ModelPicker } from './model-picker';
import type { Message, Rating } from './model';
import { isCovered } from './pending-reply';
import { useChatStream } from './use-chat-stream';

// The custom GPT picker and intro (with their call and strings), and the banner of a chat about a
// recording, load only when needed: the chat is in the signed-in shell, which has a size budget.
const RecordingBanner = lazy(() => import('./recording-banner'));
const GptPicker = lazy(() => import('./gpt-picker'));
const GptIntro = lazy(() => import('./gpt-intro'));

/** The open conversation is in the address (?c=<id>), so a reload returns to it. */
const CONVERSATION_PARAM = 'c';
/** The custom GPT of the open (or new) conversation, also in the address. */
const GPT_PARAM = 'gpt';

/**
 * / and /chat: conversations on the left, the open one on the right. `/chat?transcript=<fileId>`
 * ("Ask about this recording") opens the caller's latest conversation about that recording, or
 * starts one with the first question; its banner names the recording and links back to it.
 */
export default function ChatPage(): ReactElement {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const conversationId = params.get(CONVERSATION_PARAM);
  const fileId = params.get(CHAT_TRANSCRIPT_PARAM);
  const gptId = params.get(GPT_PARAM);
  const [picking, setPicking] = useState(false);
  const about = useConversationsAboutQuery(fileId ?? '', { skip: !fileId });
  const user = useAppSelector((state) => state.session.user);
  // Fresh on every visit: an administrator may have connected a model meanwhile.
  const { data: models } = useChatModelsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [modelId, setModelId] = useState('');
  const { data: messages, isError: messagesFailed } = useMessagesQuery(conversationId ?? '', { skip: !conversationId });
  const items = conversationId ? (messages?.items ?? []) : [];
  const { pending, redaction, streaming, send, stop, clear } = useChatStream();
  const pendingHere = pending && pending.conversationId === conversationId ? pending : null;
  const [createConversation] = useCreateConversationMutation();
  const [saveFeedback] = useFeedbackMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (pendingHere && messages && isCovered(messages.items, pendingHere)) clear();
  }, [pendingHere, messages, clear]);

  // Follow the reply as it grows, unless the person scrolled up to read.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (box && box.scrollHeight - box.scrollTop - box.clientHeight < 160) box.scrollTop = box.scrollHeight;
  }, [items.length, pendingHere?.text, pendingHere?.phase]);

  const open = (id: string | null, recording: string | null = null, gpt: string | null = null) => {
    setFailure(null);
    setListOpen(false);
    setParams({
      ...(id ? { [CONVERSATION_PARAM]: id } : {}),
      ...(recording ? { [CHAT_TRANSCRIPT_PARAM]: recording } : {}),
      ...(gpt ? { [GPT_PARAM]: gpt } : {}),
    });
  };

  // Arriving with only the recording: go on with the latest conversation about it, if there is one.
  const latestAbout = fileId && !conversationId ? about.data?.items[0]?._id : undefined;
  useEffect(() => {
    if (latestAbout)
      setParams({ [CONVERSATION_PARAM]: latestAbout, [CHAT_TRANSCRIPT_PARAM]: fileId! }, { replace: true });
  }, [latestAbout, fileId, setParams]);
  // A custom GPT answers with its own model.
  const model = models && models.models.length > 1 && modelId && !gptId ? { modelId } : {};

  const onSend = async (text: string) => {
    setFailure(null);
    let id = conversationId;
    if (!id) {
      try {
        id = (
          await createConversation({ ...(fileId ? { fileId } : {}), ...(gptId ? { customGptId: gptId } : {}) }).unwrap()
        )._id;
      } catch (error) {
        setFailure(errorMessage(error) ?? t('chat.createFailed'));
        return;
      }
      open(id, fileId, gptId);
    }
    await send({ conversationId: id, fileId, request: { message: text, ...model }, userText: text, replacedId: null });
  };

  const onRegenerate = (reply: Message) => {
    const question = [...items.slice(0, items.indexOf(reply))].reverse().find((message) => message.role === 'user');
    if (!conversationId || !question) return;
    void send({
      conversationId,
      fileId,
      request: { message: question.content, regenerate: true, ...model },
      userText: null,
      replacedId: reply._id,
    });
  };

  const onRetryPending = () => {
    if (!pendingHere) return;
    const { conversationId: id, request, userMessageId, userText, messageId, replacedId } = pendingHere;
    // Once the server stored the question, retrying means writing the reply again.
    if (userMessageId)
      void send({
        conversationId: id,
        fileId,
        request: { ...request, regenerate: true },
        userText: null,
        replacedId: messageId ?? replacedId,
      });
    else void send({ conversationId: id, fileId, request, userText, replacedId });
  };

  const onFeedback = async (messageId: string, rating: Rating, comment?: string) => {
    if (!conversationId) return false;
    try {
      await saveFeedback({ conversationId, messageId, rating, comment }).unwrap();
      return true;
    } catch {
      return false;
    }
  };

  const empty = items.length === 0 && !pendingHere;
  return (
    <section aria-labelledby="page-heading" className="flex h-[calc(100dvh-6rem)] gap-4 md:h-[calc(100dvh-7rem)]">
      <aside
        className={`${listOpen ? 'flex' : 'hidden'} absolute inset-x-4 z-10 max-h-[70dvh] flex-col rounded-2xl border border-gray-200 bg-white p-3 shadow-lg lg:static lg:flex lg:max-h-none lg:w-72 lg:shrink-0 lg:shadow-none dark:border-gray-800 dark:bg-gray-900`}
      >
        <ConversationList
          activeId={conversationId}
          onOpen={open}
          onNew={() => open(null)}
          onNewWithGpt={() => setPicking(true)}
          onDeleted={(id) => id === conversationId && open(null)}
        />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <button
            type="button"
            onClick={() => setListOpen((value) => !value)}
            aria-expanded={listOpen}
            className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm text-gray-700 lg:hidden dark:border-gray-700 dark:text-gray-200"
          >
            {t('chat.conversations')}
          </button>
          {empty ? null : (
            <h1 id="page-heading" className="sr-only">
              {t('pages.chat')}
            </h1>
          )}
          {gptId ? null : <ModelPicker models={models?.models ?? []} value={modelId} onChange={setModelId} />}
        </div>
        {gptId && !empty ? (
          <Suspense fallback={null}>
            <GptIntro gptId={gptId} empty={false} onStarter={(text) => void onSend(text)} />
          </Suspense>
        ) : null}
        {fileId ? (
          <Suspense fallback={null}>
            <RecordingBanner
              fileId={fileId}
              fileName={about.data?.transcript.fileName ?? null}
              missing={about.isError}
            />
          </Suspense>
        ) : null}
        <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-1">
          {messagesFailed ? (
            <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-300">
              {t('chat.openFailed')}
            </p>
          ) : empty && gptId ? (
            <Suspense fallback={null}>
              <GptIntro gptId={gptId} empty onStarter={(text) => void onSend(text)} />
            </Suspense>
          ) : empty ? (
            <div
              className="flex h-full flex-col items-center justify-center gap-2 text-center"
              data-testid="chat-greeting"
            >
              <p className="text-lg text-gray-600 dark:text-gray-400">
                {user?.firstName ? t('chat.helloName', { name: user.firstName }) : t('chat.hello')}
              </p>
              <h1 id="page-heading" className="text-2xl font-semibold text-gray-900 md:text-3xl dark:text-white">
                {t('chat.agenda')}
              </h1>
              {/* The platform administrator lands here after signing in: what a new platform still lacks. */}
              {roleOf(user) === 'HOST_ADMIN' ? (
                <Suspense fallback={null}>
                  <FirstRunChecklist className="mt-4" />
                </Suspense>
              ) : null}
            </div>
          ) : (
            <MessageThread
              items={items}
              pending={pendingHere}
              busy={streaming}
              gptId={gptId}
              onRegenerate={onRegenerate}
              onRetryPending={onRetryPending}
              onFeedback={onFeedback}
              redaction={redaction?.conversationId === conversationId ? redaction : null}
            />
          )}
        </div>
        {failure ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {failure}
          </p>
        ) : null}
        {models?.builtIn ? (
          <p className="text-xs text-gray-600 dark:text-gray-400" data-testid="built-in-notice">
            {t('chat.builtInNotice')}
          </p>
        ) : null}
        <ChatInput
          streaming={Boolean(pendingHere && streaming)}
          blocked={streaming && !pendingHere}
          onSend={(text) => void onSend(text)}
          onStop={stop}
        />
      </div>
      {picking ? (
        <Suspense fallback={null}>
          <GptPicker
            onChoose={(gpt) => {
              setPicking(false);
              open(null, null, gpt);
            }}
            onClose={() => setPicking(false)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
