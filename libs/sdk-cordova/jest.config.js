// The package's own Jest config (CommonJS, no databases), one of the SDK projects in jest.sdk.config.js.
module.exports = {
  displayName: 'sdk-cordova',
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '.*\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@bot-platform/sdk-core$': '<rootDir>/../sdk-core/src/index.ts',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  testTimeout: 20000,
};
