import { OpenApiContract, type ObservedExchange } from '@trackline/test-harness';

/** docs/openapi/replacement.yaml as the partner client holds every answer against it (docs/testing.md, Response validation). */
export const replacementContract = OpenApiContract.fromDocs('replacement.yaml', { platformStatuses: [431] });

/** Fails the calling test when the answer is not one the document allows. */
export function checkReplacementAnswer(exchange: ObservedExchange): void {
  replacementContract.check(exchange);
}
