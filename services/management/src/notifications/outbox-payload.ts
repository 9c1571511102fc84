/** What a notification says; the attachment's audio is read from the CDR named in attachment_cdr_id. */
export interface OutboxPayload {
  subject?: string;
  text: string;
  attachment?: { filename: string; contentType: string };
  /** A monthly report e-mail: built when it is sent, from these (docs/reports.md). */
  report?: { partnerId: string; customerId: string; month: string };
}

/**
 * The payload column as the worker reads it back (jsonb has no shape of its own): the typed value,
 * or an error naming the first field that is missing or of the wrong type.
 */
export function parseOutboxPayload(raw: unknown): OutboxPayload {
  const value = record(raw, 'payload');
  const payload: OutboxPayload = { text: text(value, 'text', 'payload') };
  if (value.subject !== undefined) payload.subject = text(value, 'subject', 'payload');
  if (value.attachment !== undefined) {
    const attachment = record(value.attachment, 'payload.attachment');
    payload.attachment = {
      filename: text(attachment, 'filename', 'payload.attachment'),
      contentType: text(attachment, 'contentType', 'payload.attachment'),
    };
  }
  if (value.report !== undefined) {
    const report = record(value.report, 'payload.report');
    payload.report = {
      partnerId: text(report, 'partnerId', 'payload.report'),
      customerId: text(report, 'customerId', 'payload.report'),
      month: text(report, 'month', 'payload.report'),
    };
  }
  return payload;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${path}: must be an object`);
  return value as Record<string, unknown>;
}

function text(value: Record<string, unknown>, key: string, path: string): string {
  const field = value[key];
  if (typeof field !== 'string') throw new Error(`${path}.${key}: must be a string`);
  return field;
}
