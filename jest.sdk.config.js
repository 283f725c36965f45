// The SDK packages' own suites (CommonJS, no databases), run by tools/run-tests.ts after the main run:
// `node node_modules/jest/bin/jest.js --config jest.sdk.config.js`.
export default {
  rootDir: '.',
  projects: ['<rootDir>/libs/sdk-core/jest.config.js', '<rootDir>/libs/sdk-react-native/jest.config.js', '<rootDir>/libs/sdk-cordova/jest.config.js'],
};
