import type { components, paths } from './generated/management';

type Schemas = components['schemas'];

/**
 * The names of the custom fields the operator defined for the partner's customers and sources
 * (docs/partner-api.md, Custom fields), as the client's type parameter:
 * `new ManagementClient<{ customer: 'custom_1'; source: 'ad_reference' | 'campaign_code' }>(…)`.
 * On the wire they are extra fields of the record; the document cannot know their names, so
 * without them a customer or source has exactly its documented fields and a misspelled name does
 * not compile.
 */
export interface CustomFieldNames {
  customer?: string;
  source?: string;
}

/** No custom fields: the default. */
export type NoCustomFields = Record<never, never>;

type Names<F, Of extends keyof CustomFieldNames> = F extends { [K in Of]: infer N extends string }
  ? N
  : never;

/** A record in an answer carries every custom field, null when not set. */
type InAnswer<N extends string> = { [K in N]: string | null };
/** A body may send any of them; an empty value clears one. */
type InBody<N extends string> = { [K in N]?: string | null };

/** The same type: assignable both ways with the same keys (all-optional bodies are assignable to each other). */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;

/**
 * `T` (the generated types of docs/openapi/management.yaml, or a part of them) with the partner's
 * custom fields on every customer and source: required in answers, optional in bodies.
 */
export type WithCustomFields<T, F extends CustomFieldNames> = [
  Names<F, 'customer'> | Names<F, 'source'>,
] extends [never]
  ? T
  : Inject<T, Names<F, 'customer'>, Names<F, 'source'>>;

type Inject<T, C extends string, S extends string> =
  Same<T, Schemas['Customer']> extends true
    ? T & InAnswer<C>
    : Same<T, Schemas['CustomerInput']> extends true
      ? T & InBody<C>
      : Same<T, Schemas['CustomerUpdate']> extends true
        ? T & InBody<C>
        : Same<T, Schemas['Source']> extends true
          ? T & InAnswer<S>
          : Same<T, Schemas['SourceInput']> extends true
            ? T & InBody<S>
            : Same<T, Schemas['SourceUpdate']> extends true
              ? T & InBody<S>
              : T extends readonly (infer U)[]
                ? Inject<U, C, S>[]
                : T extends object
                  ? { [K in keyof T]: Inject<T[K], C, S> }
                  : T;

/** The management API's paths with the partner's custom fields. */
export type ManagementPathsWith<F extends CustomFieldNames> = WithCustomFields<paths, F>;

/** A customer as answers carry it, with the partner's custom fields. */
export type Customer<F extends CustomFieldNames = NoCustomFields> = WithCustomFields<Schemas['Customer'], F>;
/** A source as answers carry it, with the partner's custom fields. */
export type Source<F extends CustomFieldNames = NoCustomFields> = WithCustomFields<Schemas['Source'], F>;
/** A basic call record (`GET /statistics/cdrs` without `extended`). */
export type Cdr = Schemas['Cdr'];
/** An extended call record (`extended=1`): every field there. */
export type CdrExtended = Schemas['CdrExtended'];
/** A webhook as POST answers it: its signing secret is there, only in that answer. */
export type CreatedWebhook = Schemas['CreatedWebhooks']['webhooks'][number];
