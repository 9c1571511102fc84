/** One part of a multipart/form-data body, as the speech engine simulator reads it. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/**
 * A multipart/form-data body (RFC 7578) split into its parts; undefined when the content type names
 * no boundary or the body does not follow it. Enough for a test double: no nested parts, no
 * transfer encodings (clients send none).
 */
export function parseMultipartForm(contentType: string | undefined, body: Buffer): FormPart[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!/^multipart\/form-data/i.test(contentType ?? '') || boundary === null) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(delimiter, headerEnd);
    if (headerEnd < 0 || next < 0) return undefined;
    const headers = body.subarray(at, headerEnd).toString('utf8');
    // The part's data ends with the CRLF that precedes the next delimiter.
    const data = body.subarray(headerEnd + 4, next - 2);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
    parts.push({
      name,
      data,
      ...(filename === undefined ? {} : { filename }),
      ...(type === undefined ? {} : { contentType: type.trim() }),
    });
    at = next;
  }
}
