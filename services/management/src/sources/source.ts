import type { AltNumberRule, ParsedAltNumber } from '@trackline/domain';
import type { CustomFieldValues } from '../customers/customer.entity';
import type { SourceStatus } from './source.entity';

export interface SourceFlags {
  notifyOnMissedCall: boolean;
  notifyOnNewVoicemail: boolean;
  vmDivertAll: boolean;
  vmDivertBusy: boolean;
  vmDivertNoanswer: boolean;
}

export const SOURCE_FLAG_FIELDS: Record<keyof SourceFlags, string> = {
  notifyOnMissedCall: 'notify_on_missed_call',
  notifyOnNewVoicemail: 'notify_on_new_voicemail',
  vmDivertAll: 'vm_divert_all',
  vmDivertBusy: 'vm_divert_busy',
  vmDivertNoanswer: 'vm_divert_noanswer',
};

/** A source as services see it. */
export interface Source extends SourceFlags {
  id: string;
  partnerId: string;
  customerId: string;
  name: string;
  media: string | null;
  /** E.164. */
  phonenr: string;
  /** The static tracking number, E.164. */
  destnr: string;
  campaignId: string | null;
  publisherId: string | null;
  email: string | null;
  /** E.164. */
  smsnumber: string | null;
  status: SourceStatus;
  sourceClass: string;
  activatedAt: Date;
  expire: Date | null;
  closedAt: Date | null;
  vmGreetingId: string | null;
  altNumbers: AltNumberRule[];
  customFields: CustomFieldValues;
  created: Date;
  modified: Date;
}

/** What POST /sources sets, checked at the edge; destnr and alt_keys are the service's business. */
export interface SourceInput extends SourceFlags {
  customerId: string;
  name: string;
  media: string | null;
  phonenr: string;
  campaignId: string | null;
  publisherId: string | null;
  email: string | null;
  smsnumber: string | null;
  vmGreetingId: string | null;
  sourceClass: string;
  altNumbers: ParsedAltNumber[];
  customFields: CustomFieldValues;
}

/** What a store inserts. */
export interface NewSource extends Omit<SourceInput, 'altNumbers'> {
  destnr: string;
  activatedAt: Date;
  altNumbers: AltNumberRule[];
}

/** PUT /sources/:id as parsed: keys left out keep their value; custom fields are merged. */
export type SourceChangesInput = Partial<
  Pick<
    SourceInput,
    | 'name'
    | 'media'
    | 'campaignId'
    | 'publisherId'
    | 'email'
    | 'smsnumber'
    | 'vmGreetingId'
    | 'altNumbers'
    | 'customFields'
    | keyof SourceFlags
  >
>;

/** What a store updates. */
export type SourceChanges = Omit<SourceChangesInput, 'altNumbers'> & { altNumbers?: AltNumberRule[] };

export interface SourceListQuery {
  page: number;
  pageSize: number;
  customerId?: string;
}

export interface SourcePage {
  sources: Source[];
  total: number;
}
