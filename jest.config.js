// One Jest run for the whole repo, in Jest's native ESM mode (NestJS 12 is ESM-only; run through
// `npm test`, which sets --experimental-vm-modules). Unit tests (*.spec.ts) sit beside the code;
// feature tests (*.e2e-spec.ts) live in test/ against the Postgres and Redis tools/run-tests.ts starts.
import { readFileSync } from 'node:fs';

const { compilerOptions } = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8'));
const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]));

export default {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/libs/sdk-core/', '<rootDir>/libs/sdk-react-native/', '<rootDir>/libs/sdk-cordova/'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+/libs/sdk-(core|react-native|cordova)/src/.+\\.ts$': '<rootDir>/tools/jest-esm-transform.cjs', // the SDK packages, imported by e2e tests
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  moduleNameMapper: { ...aliases, '^@bot-platform/sdk-core$': '<rootDir>/libs/sdk-core/src/index.ts', '^(\\.{1,2}/.*)\\.js$': '$1' },
  // CI may share a 2-core host with other work: a feature test that boots apps or spawns the CLI can
  // take minutes there. A test that hangs still fails, only later.
  testTimeout: 120_000,
  maxWorkers: 2,
  // A worker keeps 60-120 MB of each feature test's module graph (Jest's ESM mode; measured with
  // --logHeapUsage), so after a hundred files its heap nears V8's limit and garbage collection takes
  // over: the last files of a run took 20-100 times their time alone. A worker past this is replaced.
  workerIdleMemoryLimit: '1GB',
};
