import { dirname, join } from 'node:path';
import ts from 'typescript';

// The package's own tsconfig has `types: []` and `lib: ES2020 + DOM`: Node-only APIs must not type-check.
const configPath = join(__dirname, '..', 'tsconfig.json');

function packageProgramOptions(): { options: ts.CompilerOptions; fileNames: string[] } {
  const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  return { options: { ...parsed.options, noEmit: true }, fileNames: parsed.fileNames };
}

function diagnostics(fileNames: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(fileNames, options);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('portability (React Native, browser, Node)', () => {
  it('type-checks the package sources without Node types', () => {
    const { options, fileNames } = packageProgramOptions();
    expect(fileNames.some((f) => f.endsWith('session/bot-session.ts'))).toBe(true);
    expect(fileNames.some((f) => f.endsWith('.spec.ts'))).toBe(false);
    expect(diagnostics(fileNames, options)).toEqual([]);
  });

  it('would refuse Node-only APIs under the same settings', () => {
    const { options } = packageProgramOptions();
    const probe = join(__dirname, 'portability-probe.spec-helper.ts');
    const messages = diagnostics([probe], options).join('\n');
    expect(messages).toMatch(/Cannot find name 'Buffer'/);
    expect(messages).toMatch(/Cannot find module 'node:fs'/);
    expect(messages).toMatch(/Cannot find name 'process'/);
  });
});
