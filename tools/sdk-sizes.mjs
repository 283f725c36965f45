// What each SDK adds to an app, measured the same way for the size check (tools/check-sdk-sizes.mjs)
// and the packages' builds: the entry bundled with esbuild, minified, with the code of
// @bot-platform/sdk-core it uses inlined and only the host's own modules (React, React Native,
// react-native-webview, Cordova) left out. Limits are the platform spec's figures for these SDKs.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = join(root, 'libs/sdk-core/src/index.ts');

export const SDK_PACKAGES = [
  { name: '@bot-platform/sdk-core', entry: 'libs/sdk-core/src/index.ts', limitKb: 39.2 },
  { name: '@bot-platform/sdk-react-native', entry: 'libs/sdk-react-native/src/index.ts', limitKb: 39.2 },
  { name: '@bot-platform/sdk-cordova', entry: 'libs/sdk-cordova/src/index.ts', limitKb: 47.4, format: 'cjs' },
];

/** Minified bytes of one package's entry, as above. */
export async function measure(pkg) {
  const result = await build({
    entryPoints: [join(root, pkg.entry)],
    bundle: true,
    platform: 'neutral',
    target: 'es2019',
    format: pkg.format ?? 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
    external: ['react', 'react-native', 'react-native-webview', 'cordova', 'cordova/*'],
    alias: { '@bot-platform/sdk-core': core },
  });
  return result.outputFiles[0].contents.byteLength;
}

/** KB as the docs write it: bytes / 1024 with one decimal. */
export const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
