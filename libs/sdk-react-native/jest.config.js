// The package's own Jest config (CommonJS, no databases), one of the SDK projects in jest.sdk.config.js.
// react-native-webview is a peer dependency that is not installed here: a recording stand-in takes its place.
module.exports = {
  displayName: 'sdk-react-native',
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '.*\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@bot-platform/sdk-core$': '<rootDir>/../sdk-core/src/index.ts',
    '^react-native-webview$': '<rootDir>/src/testing/recording-webview.spec-helper.ts',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  testTimeout: 20000,
};
