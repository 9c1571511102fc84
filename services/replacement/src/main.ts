import './tracing';
import {
  closeGracefully,
  ConfigError,
  createLimitedHttpServer,
  createLogger,
  listen,
  onShutdownSignal,
} from '@trackline/platform';
import { createReplacementApp } from './app';
import { loadReplacementConfig } from './config/replacement-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadReplacementConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ service: 'replacement', level: config.logLevel });
  const replacement = createReplacementApp({ config, logger });
  const server = createLimitedHttpServer(config.http, replacement.handler);
  const port = await listen(server, config.port, config.host);
  logger.info({ port, host: config.host }, 'replacement service listening');
  process.stdout.write(
    `replacement service: http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}\n`,
  );
  onShutdownSignal(logger, () =>
    closeGracefully([server], [() => replacement.close()], config.shutdownTimeoutMs),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `replacement service failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
