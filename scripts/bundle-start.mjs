// The embedded default's code as a few files (decision 0061): what scripts/start-all.mjs loads on its main thread and
// on the gateway's thread, bundled by esbuild into dist/start/ with the chunks they share. Node loads a module
// at a time (its file opened, read, compiled, linked): the 2,000 or so of a start cost it about as much CPU as
// opening the seven databases, on a machine whose two cores the three threads already share. start-all takes the
// bundle while no file it was made from changed since (dist/start/manifest.json), else the apps' dist as before.
// `pnpm build` makes it (turbo's `//#bundle:start`, after every package's build).
//
// Each module keeps where it lives: `import.meta.url`, `import.meta.dirname`, `__dirname` and `__filename` are
// written as the file's own, so a module finds its files (prisma/, the pages, the threads' code, a package's data)
// and `createRequire(import.meta.url)` resolves from its package as it did. The bundle therefore runs only from
// this checkout, which is the only place start-all runs it.
import { build } from 'esbuild';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'start');
/** What start-all loads (its `load` paths), and the gateway's thread: its code and the gateway's module. */
const START_MODULES = [
  'packages/shared/dist/db/open-database.js',
  'packages/shared/dist/db/pglite-client.js',
  'packages/shared/dist/service/registry.js',
  'packages/shared/dist/service/service-thread.js',
  'packages/shared/dist/service/service-thread-main.js',
  'packages/shared/dist/index.js',
  'packages/chain/dist/local/index.js',
  'apps/books/dist/app.js',
  'apps/pos/dist/app.js',
  'apps/commerce/dist/app.js',
  'apps/p2p/dist/app.js',
  'apps/federation/dist/app.js',
  'apps/contracts/dist/app.js',
  'apps/gateway/dist/app.js',
  'apps/gateway/dist/config.js',
];

/**
 * Node gives `import('a-package')` of CommonJS its named exports beside `default`; a bundled chunk has only `default`.
 * Our modules' dynamic imports of a package therefore import a module of this namespace, which imports the package
 * statically (esbuild then gives the named exports) and exports its namespace as `default`, taken back out.
 */
const NAMESPACE = 'ctk-namespace';
const DYNAMIC_IMPORT = /\bimport\((["'])((?!node:|\.)[^"']+)\1\)/g;
const ours = (path) => !path.includes('/node_modules/');

/** Each module's own location written into it (see above), as its own file would have it. */
const keepLocations = {
  name: 'keep-locations',
  setup(bundler) {
    bundler.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, ({ path, resolveDir }) => ({
      path: path.slice(NAMESPACE.length + 1),
      namespace: NAMESPACE,
      pluginData: { resolveDir },
    }));
    bundler.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path, pluginData }) => ({
      contents: `import * as namespace from ${JSON.stringify(path)};\nexport default namespace;\n`,
      resolveDir: pluginData.resolveDir,
      loader: 'js',
    }));
    bundler.onLoad({ filter: /\.[cm]?js$/ }, async ({ path }) => {
      let text = await readFile(path, 'utf8');
      if (ours(path))
        text = text.replace(DYNAMIC_IMPORT, (_, _quote, name) => `import("${NAMESPACE}:${name}").then((module) => module.default)`);
      if (text.includes('import.meta.url')) text = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href));
      if (text.includes('import.meta.dirname')) text = text.replaceAll('import.meta.dirname', JSON.stringify(dirname(path)));
      if (/\b__(dirname|filename)\b/.test(text))
        text = `var __filename = ${JSON.stringify(path)}, __dirname = ${JSON.stringify(dirname(path))};\n${text}`;
      return { contents: text, loader: 'js' };
    });
  },
};

const started = performance.now();
await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: START_MODULES.map((path) => ({ in: join(root, path), out: path.replace(/\.js$/, '').replaceAll('/', '_') })),
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  outExtension: { '.js': '.mjs' },
  // A package's CommonJS that requires a Node module at run time gets Node's require.
  banner: { js: "import { createRequire as __ctkRequire } from 'node:module'; const require = __ctkRequire(import.meta.url);" },
  plugins: [keepLocations],
  metafile: true,
  logLevel: 'warning',
});
// Each of START_MODULES by its bundled file (a module loaded later by `import()` is a file of its own too).
const modules = Object.fromEntries(
  Object.entries(result.metafile.outputs)
    .map(([file, output]) => [output.entryPoint && relative(root, resolve(root, output.entryPoint)), relative(outdir, resolve(root, file))])
    .filter(([module]) => START_MODULES.includes(module)),
);
const inputs = Object.keys(result.metafile.inputs)
  .filter((input) => !input.startsWith(`${NAMESPACE}:`))
  .map((input) => relative(root, resolve(root, input)));
// Made after every input was read: an input changed later is newer than the manifest.
const madeAt = Date.now();
await writeFile(join(outdir, 'manifest.json'), `${JSON.stringify({ madeAt, modules, inputs })}\n`);
const bytes = (await Promise.all(Object.keys(result.metafile.outputs).map((file) => stat(resolve(root, file))))).reduce(
  (sum, { size }) => sum + size,
  0,
);
console.log(
  `dist/start: ${inputs.length} modules in ${Object.keys(result.metafile.outputs).length} files (${(bytes / 1e6).toFixed(1)} MB), ${Math.round(performance.now() - started)} ms`,
);
