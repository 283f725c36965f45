import '@platform/common/v8-flags'; // first, before any other module runs (PLATFORM_V8_FLAGS)
import 'reflect-metadata';
import { runMain } from '@platform/common';
import { runCli } from './run-cli.js';

runMain(async () => {
  process.exitCode = await runCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
});
