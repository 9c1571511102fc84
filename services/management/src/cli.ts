#!/usr/bin/env node
import { processOutput } from './cli/cli-output';
import { runCli } from './cli/run-cli';

// The only place the CLI touches process.env and the exit code.
void runCli(process.argv.slice(2), process.env, processOutput()).then((code) => {
  process.exitCode = code;
});
