// Jest transform for libs/sdk-core/src when imported by the repo's ESM tests. Under nodenext that package
// is CommonJS-scoped (its package.json has no "type"), so ts-jest would emit CJS into Jest's ESM loader;
// esbuild compiles it to ESM instead (the package's own build uses esbuild too; types are checked by tsc).
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

module.exports = {
  getCacheKey(source, path) {
    return createHash('sha256').update(`${version}\0${path}\0${source}`).digest('hex');
  },
  process(source, path) {
    const out = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022', sourcemap: 'inline', sourcefile: path });
    return { code: out.code };
  },
};
