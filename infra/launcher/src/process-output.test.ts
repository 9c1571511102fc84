import { formatChildLine } from './process-output';

describe('formatChildLine', () => {
  it('renders a pino JSON line as time, level, message and the remaining fields', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-03-29T01:02:03.456Z',
      service: 'management',
      pid: 1,
      hostname: 'h',
      msg: 'listening',
      port: 8443,
      tls: { selfSigned: true },
    });
    expect(formatChildLine('management', line, 11)).toBe(
      'management  | 01:02:03 INFO listening port=8443 tls={"selfSigned":true}',
    );
  });

  it('understands numeric pino levels and epoch times', () => {
    const line = JSON.stringify({ level: 50, time: Date.UTC(2026, 0, 1, 23, 59, 58), msg: 'boom' });
    expect(formatChildLine('replacement', line)).toBe('replacement | 23:59:58 ERROR boom');
  });

  it('passes anything that is not a log object through unchanged', () => {
    expect(formatChildLine('redis', '* Ready to accept connections')).toBe(
      'redis | * Ready to accept connections',
    );
    expect(formatChildLine('redis', '{not json')).toBe('redis | {not json');
    expect(formatChildLine('redis', '{"no":"msg"}')).toBe('redis | {"no":"msg"}');
  });
});
