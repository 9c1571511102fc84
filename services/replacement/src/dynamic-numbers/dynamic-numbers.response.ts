/** The seed's response object, to the letter. */
export interface ReplacementSuccess {
  success: true;
  numbers: Array<{ number_on_page: string; replace_with: { e164: string; local: string } }>;
  sessionId: string;
}

export interface ReplacementFailure {
  success: false;
  error: string;
}

export function successBody(
  numbers: Array<{ numberOnPage: string; e164: string; local: string }>,
  sessionId: string,
): ReplacementSuccess {
  return {
    success: true,
    numbers: numbers.map((n) => ({
      number_on_page: n.numberOnPage,
      replace_with: { e164: n.e164, local: n.local },
    })),
    sessionId,
  };
}

export function failureBody(error: string): ReplacementFailure {
  return { success: false, error };
}

/** Legacy mode answers 200 for every outcome; X-HTTP-STATUSES asks for the real status (seed, Errors). */
export function responseStatus(realStatus: number, wantsHttpStatuses: boolean): number {
  return wantsHttpStatuses ? realStatus : 200;
}
