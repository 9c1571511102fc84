import type { CountryCode } from '@trackline/domain';

/**
 * Where the autoscaling buys and releases numbers: the partner's carrier account, which also adds
 * a bought number to the inventory and takes a released one out (docs/carrier-numbers.md).
 */
export interface NumberCarrier {
  buy(
    partnerId: string,
    request: { count: number; kind: 'pool'; country?: CountryCode; areaCode?: string; contains?: string },
  ): Promise<{ bought: string[] }>;
  release(partnerId: string, e164: string): Promise<void>;
}

/** What the audit, the API and the metric say about a failed carrier call. */
export interface CarrierFailure {
  /** The carrier's own code (Twilio's 20003, 21422, …), else the HTTP status, else `error`. */
  code: string;
  message: string;
}

export function describeCarrierFailure(error: unknown): CarrierFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    status?: unknown;
    message?: unknown;
  };
  const code =
    typeof fields.code === 'number' || typeof fields.code === 'string'
      ? String(fields.code)
      : typeof fields.status === 'number'
        ? String(fields.status)
        : 'error';
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  return { code, message };
}
