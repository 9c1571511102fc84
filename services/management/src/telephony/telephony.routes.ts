import { ValidationError } from '@trackline/domain';
import { parseGreetingRecording } from '../greetings/greetings.dto';
import type { GreetingsService } from '../greetings/greetings.service';
import type { SwitchRouteDefinition } from '../http/route-definition';

// Base64 is 4/3 of the audio; 10 MiB of audio plus the JSON around it.
const BODY_LIMIT_BYTES = 14 * 1024 * 1024;

export interface TelephonyDependencies {
  greetings: GreetingsService;
  /** TELEPHONY_TOKEN; when unset every request is refused with 401. */
  token: string | undefined;
}

/**
 * The switch's greeting endpoint (docs/switch.md), authenticated by the bearer token only: a route
 * definition for the one registration (http/mount-routes.ts), outside the partner API (no digest,
 * no IP allowlist, no version segment). Its call records go to cdrs/switch-cdrs.routes.ts.
 */
export function telephonyRoutes(dependencies: TelephonyDependencies): SwitchRouteDefinition[] {
  const { token } = dependencies;
  return [
    {
      method: 'POST',
      path: '/telephony/greetings',
      access: 'switch',
      token,
      bodyLimitBytes: BODY_LIMIT_BYTES,
      handle: async ({ body, now, log }) => {
        const recording = parseGreetingRecording(jsonObject(body));
        const greeting = await dependencies.greetings.record(recording.recordPin, recording.sounddata, now);
        log.info({ vmGreetingId: greeting.id, bytes: greeting.datalength }, 'voicemail greeting recorded');
        return {
          kind: 'json',
          body: {
            vm_greeting_id: greeting.id,
            customer_id: greeting.customerId,
            datalength: String(greeting.datalength),
          },
        };
      },
    },
  ];
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}
