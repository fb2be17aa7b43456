// Calls of the Webhooks page (a company's ADMIN; HOST_ADMIN for any company), injected into the
// app's one RTK Query API.
import type {
  WebhookCreated,
  WebhookCreateInput,
  WebhookDeliveryPage,
  WebhookDto,
  WebhookEventTypeList,
  WebhookList,
  WebhookSecret,
  WebhookUpdateBody,
} from '@earshot/contracts';
import { api } from '../../lib/api';

const withTags = api.enhanceEndpoints({ addTagTypes: ['Webhooks', 'WebhookDeliveries'] });
const at = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export const webhooksApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    webhookEventTypes: build.query<WebhookEventTypeList, void>({ query: () => '/webhook-event-types' }),
    webhooks: build.query<WebhookList, string | null>({
      query: (companyId) => ({ url: '/webhooks', params: companyId ? { companyId } : {} }),
      providesTags: ['Webhooks'],
    }),
    createWebhook: build.mutation<WebhookCreated, WebhookCreateInput>({
      query: (body) => ({ url: '/webhooks', method: 'POST', body }),
      invalidatesTags: ['Webhooks'],
    }),
    updateWebhook: build.mutation<WebhookDto, { id: string; body: WebhookUpdateBody }>({
      query: ({ id, body }) => ({ url: at(id), method: 'PUT', body }),
      invalidatesTags: ['Webhooks', 'WebhookDeliveries'],
    }),
    deleteWebhook: build.mutation<unknown, string>({
      query: (id) => ({ url: at(id), method: 'DELETE' }),
      invalidatesTags: ['Webhooks'],
    }),
    rotateWebhookSecret: build.mutation<WebhookSecret, string>({
      query: (id) => ({ url: `${at(id)}/rotate-secret`, method: 'POST' }),
    }),
    testWebhook: build.mutation<{ deliveryId: string }, string>({
      query: (id) => ({ url: `${at(id)}/test`, method: 'POST' }),
      invalidatesTags: ['WebhookDeliveries'],
    }),
    webhookDeliveries: build.query<WebhookDeliveryPage, string>({
      query: (id) => ({ url: `${at(id)}/deliveries`, params: { limit: 50 } }),
      providesTags: ['WebhookDeliveries'],
    }),
    resendDelivery: build.mutation<{ deliveryId: string }, { id: string; deliveryId: string }>({
      query: ({ id, deliveryId }) => ({
        url: `${at(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
        method: 'POST',
      }),
      invalidatesTags: ['WebhookDeliveries'],
    }),
  }),
});

export const {
  useWebhookEventTypesQuery,
  useWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useWebhookDeliveriesQuery,
  useResendDeliveryMutation,
} = webhooksApi;
