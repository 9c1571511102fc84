import type { paths } from './management';

type SourceUpdate = NonNullable<
  paths['/sources/{source_id}']['put']['requestBody']
>['content']['application/json'];
type Updated = paths['/sources/{source_id}']['put']['responses'][200]['content']['application/json'];

export const update: SourceUpdate = {
  email: 'leads@kari.example',
  alt_numbers: [
    { phonenr: 'voicemail', weekdays: 'sat,sun', from_time: '00:00', to_time: '24:00' },
    { phonenr: '+4722334466', weekdays: 'mon,tue,wed,thu,fri', from_time: '17:00', to_time: '24:00' },
  ],
};

export function altKeys(updated: Updated): string[] {
  return updated.sources[0].alt_numbers.map((rule) => rule.alt_key);
}
