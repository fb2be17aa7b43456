// Calls of the e-mail page (HOST_ADMIN), injected into the app's one RTK Query API.
import type {
  EmailLanguage,
  EmailTemplateDto,
  EmailTemplateType,
  OutgoingMailDetailDto,
  OutgoingMailDto,
  RenderedEmailDto,
} from '@earshot/contracts';
import { api } from '../../lib/api';

export interface TemplateDraft {
  subject: string;
  html: string;
  text: string;
}

export interface OutboxPage {
  items: OutgoingMailDto[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export const OUTBOX_PAGE_SIZE = 25;

const emailApi = api.enhanceEndpoints({ addTagTypes: ['EmailTemplate', 'Mail'] }).injectEndpoints({
  endpoints: (build) => ({
    emailTemplates: build.query<EmailTemplateDto[], { companyId: string | 'platform' }>({
      query: ({ companyId }) => ({ url: '/email', params: { companyId } }),
      providesTags: ['EmailTemplate'],
    }),
    updateEmailTemplate: build.mutation<EmailTemplateDto, { id: string; draft: TemplateDraft }>({
      query: ({ id, draft }) => ({ url: `/email/${id}`, method: 'PUT', body: draft }),
      invalidatesTags: ['EmailTemplate'],
    }),
    createEmailOverride: build.mutation<
      EmailTemplateDto,
      TemplateDraft & { type: EmailTemplateType; language: EmailLanguage; companyId: string }
    >({
      query: (body) => ({ url: '/email', method: 'POST', body }),
      invalidatesTags: ['EmailTemplate'],
    }),
    deleteEmailOverride: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/email/${id}`, method: 'DELETE' }),
      invalidatesTags: ['EmailTemplate'],
    }),
    previewEmail: build.mutation<
      RenderedEmailDto,
      TemplateDraft & { type: EmailTemplateType; companyId: string | null }
    >({
      query: (body) => ({ url: '/email/preview', method: 'POST', body }),
    }),
    sendTestEmail: build.mutation<{ _id: string; status: string }, string>({
      query: (id) => ({ url: `/email/${id}/test`, method: 'POST' }),
      invalidatesTags: ['Mail'],
    }),
    outbox: build.query<OutboxPage, { page: number; status?: string }>({
      query: ({ page, status }) => ({
        url: '/email/outbox',
        params: { page, pageSize: OUTBOX_PAGE_SIZE, ...(status ? { status } : {}) },
      }),
      providesTags: ['Mail'],
    }),
    outgoingMail: build.query<OutgoingMailDetailDto, string>({
      query: (id) => `/email/outbox/${id}`,
      providesTags: ['Mail'],
    }),
  }),
});

export const {
  useEmailTemplatesQuery,
  useUpdateEmailTemplateMutation,
  useCreateEmailOverrideMutation,
  useDeleteEmailOverrideMutation,
  usePreviewEmailMutation,
  useSendTestEmailMutation,
  useOutboxQuery,
  useOutgoingMailQuery,
} = emailApi;
