// The package's own Jest config: no database globalSetup. Run: npx jest --config libs/sdk-core/jest.config.js
module.exports = {
  displayName: 'sdk-core',
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testRegex: '.*\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  testTimeout: 20000,
};
