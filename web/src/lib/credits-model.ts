// The credit screens' API shapes (issue 13). Until the contracts land these mirror
// /work/briefs/credits-api.md; they become type re-exports of @earshot/contracts.
import type { CreditFeature, LedgerKind, PriceUnit } from '@earshot/contracts/constants';

export interface PriceDto {
  _id: string;
  modelId: string | null;
  engine: string | null;
  modelName: string | null;
  unit: PriceUnit;
  credits: number;
  effectiveFrom: string;
  createdAt: string;
}

export interface PricingDto {
  currency: string;
  creditRate: number;
  prices: PriceDto[];
}

export interface LedgerEntryDto {
  _id: string;
  kind: LedgerKind;
  amount: number;
  reason: string | null;
  feature: CreditFeature | null;
  model: string | null;
  eventId: string | null;
  userId: string | null;
  createdAt: string;
}

export interface CompanyCreditsDto {
  balance: number;
  reserved: number;
  currency: string;
  monthlyBudget: number | null;
  monthlyGrant: number | null;
  ledger: { items: LedgerEntryDto[]; page: number; pageSize: number; total: number; totalPages: number };
}

export interface UsageDto {
  from: string;
  to: string;
  currency: string;
  creditRate: number;
  total: number;
  byDay: Array<{ day: string; credits: number }>;
  byUser: Array<{ userId: string | null; name: string; credits: number }>;
  byModel: Array<{ model: string; credits: number; inputTokens: number; outputTokens: number; seconds: number }>;
  byFeature: Array<{ feature: CreditFeature; credits: number }>;
}

export interface StatementDto {
  companyId: string;
  companyName: string;
  month: string;
  currency: string;
  creditRate: number;
  opening: number;
  grants: number;
  adjustments: number;
  charges: Array<{ feature: CreditFeature; model: string | null; credits: number }>;
  totalCharges: number;
  closing: number;
}

export interface MyCreditsDto {
  monthlyCap: number | null;
  spentThisMonth: number;
  remaining: number | null;
  companyBalance: number | null;
}

export interface NotificationDto {
  _id: string;
  kind: 'credits_threshold' | 'cap_threshold';
  title: string;
  body: string;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

export interface NotificationPageDto {
  items: NotificationDto[];
  unread: number;
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}
