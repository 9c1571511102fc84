import { createLogger } from '@trackline/platform';
import { loadManagementConfig } from '../config/management-config';
import { startNotifications } from '../composition/outbox-deliveries';

// Run by notification-worker.kill.integration.test.ts as a child process (node -r ts-register.js):
// the worker started the way main.ts starts it (composition/outbox-deliveries.ts), configured
// from the environment. Prints the line `ready` on stdout (among its JSON logs) once it delivers;
// stops cleanly on SIGTERM. The test ends it with SIGKILL, which no handler sees.
async function main(): Promise<void> {
  const config = loadManagementConfig(process.env);
  const logger = createLogger({ service: 'notification-worker', level: config.logLevel });
  const running = await startNotifications(config, logger);
  process.once('SIGTERM', () => {
    void running.stop().then(() => process.exit(0));
  });
  process.stdout.write('ready\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
