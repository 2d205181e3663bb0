// A package's build: its TypeScript sources turned into JavaScript and source maps, file by file, with esbuild
// (no type checking: that is `tsc`'s, in the `typecheck` and `types` tasks; docs/decisions/0044-build-with-esbuild.md).
// Every package sets `isolatedModules`, so each file is translated alone exactly as tsc would emit it.
// Run from a package's folder: [sources (src)] [output (dist)]. Tests (*.test.ts) stay out, as tsconfig.build.json says.
//
//   node ../../scripts/transpile.mjs            # src/**/*.ts -> dist/**/*.js
//   node ../scripts/transpile.mjs gen dist      # @ctk/proto's generated code
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const [sources = 'src', output = 'dist'] = process.argv.slice(2);
const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts');
const entryPoints = readdirSync(sources, { recursive: true, encoding: 'utf8' })
  .filter(isSource)
  .map((file) => join(sources, file));

await build({
  entryPoints,
  outdir: output,
  outbase: sources,
  bundle: false,
  format: 'esm',
  platform: 'node',
  // tsconfig.base.json's target.
  target: 'es2022',
  sourcemap: true,
  tsconfig: 'tsconfig.build.json',
  logLevel: 'warning',
});
