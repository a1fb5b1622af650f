export interface QueueFilter {
  labels?: string[];
  showChecked?: boolean;
  showShadowFlagged?: boolean;
  [key: string]: unknown;
}

export interface QueueView {
  id: string;
  name: string;
  description: string;
  filter: QueueFilter;
  totalItemsCount: number;
  resolvedItemsCount: number;
  unresolvedItemsCount: number;
}

export interface Claim {
  userId: string;
  email: string;
  name: string;
  mine: boolean;
  claimedAt: number;
  expiresAt: number;
}

export interface ItemLabel {
  label: string;
  score: number;
  flagged: boolean;
}

export interface QueueItem {
  id: string;
  internalId: string;
  preview: string;
  contentType: string;
  flagged: boolean;
  shadowFlagged: boolean;
  shadowPolicies: string[];
  labels: ItemLabel[];
  severity: number;
  recommendation: string;
  channelId: string | null;
  conversationId: string | null;
  language: string | null;
  createdAt: number;
  status: 'pending' | 'resolved';
  resolvedAt: number | null;
  author: null | { id: string; externalId: string; name: string | null; status: string; trustLevel: number; blockUntil: number | null };
  claim: Claim | null;
  actions: { id: string; name: string; timestamp: number; comment?: string; reviewer?: string; value?: string }[];
}

export interface ItemPage {
  items: QueueItem[];
  pagination: { currentPage: number; totalPages: number; totalItems: number; hasNextPage: boolean; hasPreviousPage: boolean };
}

export interface ActionView {
  id: string;
  key: string | null;
  name: string;
  description: string | null;
  type: string | null;
  builtIn: boolean | null;
  queueBehaviour: 'REMOVE' | 'ADD' | 'NO_CHANGE';
  position: string;
  possibleValues: { value: string }[];
  valueRequired: boolean;
  freeText: boolean;
}
