/**
 * Which numbers open sources ring (their `phonenr` or an `alt_numbers` rule's). `numbers:add` refuses
 * such a number as a tracking number, so calls cannot loop (docs/numbers-and-sources.md, "No call
 * loops"). The sources feature implements this port on its own table (TypeormSourcesStore).
 */
export interface AnsweringNumbers {
  answeringNumbersAmong(numbers: readonly string[]): Promise<string[]>;
}
