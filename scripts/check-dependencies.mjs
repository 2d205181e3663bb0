// Each package.json declares what its package uses, in the right field:
// - a dependency is imported by the package's shipped code (src, bin, generated code: what its `files`
//   put in a production bundle); one only tests or tools use belongs in devDependencies;
// - a devDependency is imported by tests, benchmarks or config, or runs as a command from the package's
//   scripts or the files they run (`node_modules/.bin/prisma`, buf.gen.yaml's protoc-gen-ts_proto), or is
//   a workspace package listed so turbo builds it first;
// - what shipped code imports is a dependency (tests may also import the root's devDependencies).
// Reads generated code, so run it after `pnpm build`. Prints each finding and exits 1 if there is any.
//
//   node scripts/check-dependencies.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CODE = /\.(?:[cm]?[jt]s|tsx?)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', '.data', '.buf-cache', 'coverage']);
// Shipped code: what a production bundle runs. Everything else in a package is tests, tools or config.
const isShipped = (path) => /^(src|bin|gen)\//.test(path) && !/(^|\/)(test|__tests__)\/|\.test\.[cm]?[jt]s$/.test(path);

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const rootPackage = readJson(join(ROOT, 'package.json'));
const workspaceGlobs = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8')
  .split('packages:')[1]
  .split(/\n\S/)[0]
  .match(/- (.+)/g)
  .map((line) =>
    line
      .slice(2)
      .trim()
      .replace(/^["']|["']$/g, ''),
  );
const packageDirs = workspaceGlobs.flatMap((glob) =>
  glob.endsWith('/*')
    ? readdirSync(join(ROOT, glob.slice(0, -2)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, glob.slice(0, -2), entry.name, 'package.json')))
        .map((entry) => join(glob.slice(0, -2), entry.name))
    : [glob],
);

const rootDevDependencies = new Set(Object.keys(rootPackage.devDependencies ?? {}));
const allScripts = [rootPackage, ...packageDirs.map((dir) => readJson(join(ROOT, dir, 'package.json')))].flatMap((pkg) =>
  Object.values(pkg.scripts ?? {}),
);
const findings = [];

for (const dir of packageDirs) checkPackage(dir, readJson(join(ROOT, dir, 'package.json')));
checkRoot();

if (findings.length) {
  console.error(`${findings.length} dependency finding(s):`);
  for (const finding of findings) console.error(`  ${finding}`);
  process.exit(1);
}
console.log(`dependencies: every package declares what it uses, in the right field (${packageDirs.length + 1} packages)`);

function checkPackage(dir, pkg) {
  const abs = join(ROOT, dir);
  const dependencies = Object.keys(pkg.dependencies ?? {});
  const devDependencies = Object.keys(pkg.devDependencies ?? {});
  const shippedImports = new Set();
  const otherImports = new Set();
  for (const file of walk(abs)) {
    const path = relative(abs, file).split('\\').join('/');
    const into = isShipped(path) ? shippedImports : otherImports;
    for (const name of importsOf(readFileSync(file, 'utf8'))) if (name !== pkg.name) into.add(name);
  }
  const toolText = toolTextOf(abs, pkg);

  for (const name of dependencies) {
    if (shippedImports.has(name) || isTypesFor(name, shippedImports)) continue;
    if (otherImports.has(name) || usesBin(abs, name, toolText))
      findings.push(`${dir}: "${name}" is used only by tests or tools: move it to devDependencies`);
    else findings.push(`${dir}: dependency "${name}" is not used: remove it`);
  }
  for (const name of devDependencies) {
    const workspace = String(pkg.devDependencies[name]).startsWith('workspace:');
    if (workspace || otherImports.has(name) || shippedImports.has(name) || isTypesFor(name, new Set([...shippedImports, ...otherImports])))
      continue;
    if (!usesBin(abs, name, toolText)) findings.push(`${dir}: devDependency "${name}" is not used: remove it`);
  }
  for (const name of shippedImports) {
    if (!dependencies.includes(name)) findings.push(`${dir}: shipped code imports "${name}", which is not in dependencies`);
  }
  for (const name of otherImports) {
    if (!dependencies.includes(name) && !devDependencies.includes(name) && !rootDevDependencies.has(name))
      findings.push(`${dir}: tests or tools import "${name}", which no package.json here declares`);
  }
}

/** The root's devDependencies are the shared tools: each is imported or run somewhere in the workspace. */
function checkRoot() {
  const imports = new Set();
  for (const file of walk(ROOT, true)) for (const name of importsOf(readFileSync(file, 'utf8'))) imports.add(name);
  const toolText = [...allScripts, readFileSync(join(ROOT, '.ci', 'run'), 'utf8')].join('\n');
  for (const name of rootDevDependencies) {
    if (imports.has(name) || isTypesFor(name, imports) || name === '@types/node' || usesBin(ROOT, name, toolText)) continue;
    findings.push(`root package.json: devDependency "${name}" is not used: remove it`);
  }
}

/** `@types/pg` is used where `pg` is. */
function isTypesFor(name, imports) {
  if (!name.startsWith('@types/')) return false;
  const target = name.slice('@types/'.length);
  return imports.has(target.includes('__') ? `@${target.replace('__', '/')}` : target);
}

/** Every code file of a package (or, with `all`, of the repository), dependencies and build output left out. */
function* walk(dir, all = false, top = dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Another workspace package below this one is checked on its own.
      if (!all && path !== top && existsSync(join(path, 'package.json'))) continue;
      yield* walk(path, all, top);
    } else if (CODE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Package names a source imports: static and dynamic imports, re-exports and require calls. */
function importsOf(code) {
  const names = new Set();
  // Comments cite imports too (generated Prisma clients show `import { PrismaPg } from '@prisma/adapter-pg'`).
  const source = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g),
    ...source.matchAll(/\b(?:import|require)\s*\(\s*['"`]([^'"`$]+)/g),
  ].map((match) => match[1]);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || specifier.startsWith('#')) continue;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (!name || builtinModules.includes(name)) continue;
    names.add(name);
  }
  return names;
}

/**
 * The text that runs commands for a package: its scripts, the repository scripts they run
 * (`node ../../scripts/prisma-generate.mjs`), and its own config files (buf.gen.yaml).
 */
function toolTextOf(abs, pkg) {
  const scripts = Object.values(pkg.scripts ?? {});
  const texts = [...scripts];
  for (const script of scripts) {
    for (const match of script.matchAll(/node\s+(\S+\.[cm]?js)/g)) {
      const file = join(abs, match[1]);
      if (existsSync(file)) texts.push(readFileSync(file, 'utf8'));
    }
  }
  for (const entry of readdirSync(abs))
    if (/\.(ya?ml|json)$/.test(entry) && entry !== 'package.json') texts.push(readFileSync(join(abs, entry), 'utf8'));
  return texts.join('\n');
}

/** Whether one of the commands `name` installs appears in `text`. */
function usesBin(abs, name, text) {
  const manifest = [join(abs, 'node_modules', name, 'package.json'), join(ROOT, 'node_modules', name, 'package.json')].find(existsSync);
  if (!manifest) return false;
  const { bin } = readJson(manifest);
  const bins = typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin ?? {});
  return bins.some((command) => new RegExp(`(^|[\\s/;&|'"(])${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s'"])`, 'm').test(text));
}
