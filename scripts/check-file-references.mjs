// Every repository path that a code comment, a README or a doc under docs/ names must exist: a comment
// that cites `docs/decisions/0002-migrations.md` or `packages/shared/src/errors.ts`, a markdown link
// `](../architecture.md)`. Placeholders (`apps/<app>/...`, `apps/{books,pos}`) and globs are skipped, and
// so are paths git ignores (generated code such as proto/gen exists only after `pnpm build`).
// The same comments and docs cite no issue by its number (the word issue and a number, or a GitHub-style
// hash and a number): a reader of the repository cannot open one.
// Prints each broken reference and each citation as file:line and exits 1 if there is any.
//
//   node scripts/check-file-references.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const git = (args, input) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });

// Tracked files plus new ones not yet committed, so the check works before a commit too.
const files = git(['ls-files', '--cached', '--others', '--exclude-standard', '-z'])
  .split('\0')
  .filter((file) => file && !file.split('/').includes('node_modules'));
const existing = new Set(files.filter((file) => exists(file)));
const directories = new Set();
for (const file of existing) for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) directories.add(dir);
const topLevel = new Set([...existing].map((file) => file.split('/')[0]));

// Code whose comments are read: `//` and `/* */` (JavaScript, TypeScript, protobuf, Prisma), `#` (shell, YAML).
const SLASH_COMMENTS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.proto', '.prisma']);
const HASH_COMMENTS = new Set(['.sh', '.yaml', '.yml', '.toml']);
const isHashCommented = (file) =>
  HASH_COMMENTS.has(extname(file)) ||
  /(^|\/)(Dockerfile|\.dockerignore|\.gitignore|\.prettierignore|\.npmrc)$/.test(file) ||
  file === '.ci/run';
const isDoc = (file) => extname(file) === '.md' && (file.startsWith('docs/') || /(^|\/)README\.md$/i.test(file));

/** The word issue and a number (a hash between them or not), or a hash and digits after a space or a bracket (not PKCS#7). */
const ISSUE_CITATION = /\b[Ii]ssues? #?\d+\b|(?:^|[\s([])#\d+\b/g;

const broken = [];
const citations = [];
for (const file of files) {
  if (!existing.has(file)) continue;
  const generated = /(^|\/)(gen|generated|dist)\//.test(file);
  if (generated) continue;
  let texts;
  if (isDoc(file)) texts = [{ text: readFileSync(join(ROOT, file), 'utf8'), line: 1, markdown: true }];
  else if (SLASH_COMMENTS.has(extname(file))) texts = slashComments(readFileSync(join(ROOT, file), 'utf8'));
  else if (isHashCommented(file)) texts = hashComments(readFileSync(join(ROOT, file), 'utf8'));
  else continue;
  for (const { text, line, markdown } of texts) {
    for (const match of text.matchAll(ISSUE_CITATION)) citations.push(`${file}:${line + lineOf(text, match.index)}: ${match[0].trim()}`);
    for (const ref of references(text, markdown)) {
      let resolved = ref.relative
        ? normalize(join(dirname(file), ref.path))
            .split('\\')
            .join('/')
        : ref.path;
      if (ref.inPackage) {
        // `src/config.ts` in apps/books/README.md: from the nearest folder above the file that has `src/`.
        const base = baseFor(file, ref.path.split('/')[0]);
        if (base === undefined) continue;
        resolved = `${base}/${ref.path}`;
      }
      if (process.env.CTK_DEBUG_REFS) console.log(`${file}: ${ref.path} -> ${resolved}`);
      if (ref.record ? !existing.has(ref.path) : !resolves(resolved) && !(ref.orRoot && resolves(ref.path)))
        broken.push(`${file}:${line + lineOf(text, ref.index)}: ${ref.path}${resolved !== ref.path ? ` (${resolved})` : ''}`);
    }
  }
}

if (broken.length) {
  console.error(`${broken.length} file reference(s) name nothing in the repository:`);
  for (const entry of broken) console.error(`  ${entry}`);
}
if (citations.length) {
  console.error(`${citations.length} comment(s) or doc(s) cite an issue; say what it asked instead:`);
  for (const entry of citations) console.error(`  ${entry}`);
}
if (broken.length || citations.length) process.exit(1);
console.log(
  `file references: every path named in comments, READMEs and docs/ exists, and none cites an issue (${files.length} files read)`,
);

/** Listed by git and still on disk (a file deleted but not yet committed is gone). */
function exists(file) {
  return existsSync(join(ROOT, file));
}

/** The nearest folder at or above `file`'s (the root excluded) that holds a folder named `first`. */
function baseFor(file, first) {
  for (let dir = posix.dirname(file); dir !== '.'; dir = posix.dirname(dir)) if (directories.has(`${dir}/${first}`)) return dir;
  return undefined;
}

/** A path (file or folder) that exists, or that git ignores: generated output named before it is made. */
function resolves(path) {
  const clean = path.replace(/\/+$/, '');
  if (clean === '' || clean === '.' || existing.has(clean) || directories.has(clean)) return true;
  if (clean.startsWith('../')) return false;
  // With a trailing slash too: `gen/` in .gitignore matches a folder only, and before `pnpm build`
  // there is no folder on disk to tell git so.
  return [clean, `${clean}/`].some((candidate) => {
    try {
      git(['check-ignore', '-q', '--no-index', candidate]);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Candidate paths in `text`: those holding a `/`, from the root when their first segment is a top-level
 * entry (`docs/decisions/0008-receipts.md`, `.ci/run`), else from the package that has that folder
 * (`src/config.ts`); documents named alone (`*.md`); decision records by number ("decision
 * 0009"); and in markdown the targets of relative links, resolved from the file's folder.
 */
function references(text, markdown) {
  const found = [];
  const rooted = /(?<![\w./<>{}$@*:-])((?:\.\/)?([.\w-]+)\/[\w./<>{}*,@$:-]*[\w/])/g;
  for (const match of text.matchAll(rooted)) {
    const path = match[1].replace(/^\.\//, '');
    if (isPlaceholder(path)) continue;
    // `packages/shared/src/errors.ts:12` or a trailing `:` of prose: the path ends before the colon.
    found.push({ path: path.replace(/:.*$/, ''), index: match.index, relative: false, inPackage: !topLevel.has(match[2]) });
  }
  // A document named without a folder (a bare `*.md` name): beside the file or at the root.
  for (const match of text.matchAll(/(?<![\w./<>{}$@*:-])([\w-]+\.md)\b/g)) {
    found.push({ path: match[1], index: match.index, relative: true, orRoot: true });
  }
  // "decision 0009", "decisions 0002 and 0003": a record of that number in docs/decisions.
  for (const match of text.matchAll(/\b[Dd]ecisions? ((?:\d{4}(?:,? (?:and |or )?)?)+)/g)) {
    for (const number of match[1].match(/\d{4}/g)) {
      const record = [...existing].find((file) => file.startsWith(`docs/decisions/${number}-`));
      found.push({ path: record ?? `docs/decisions/${number}-*.md`, index: match.index, relative: false, record: true });
    }
  }
  if (markdown) {
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1].replace(/#.*$/, '');
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/') || isPlaceholder(target)) continue;
      found.push({ path: decodeURIComponent(target), index: match.index, relative: true });
    }
  }
  return found;
}

function isPlaceholder(path) {
  return /[<>{}*$]|\.\.\.|…/.test(path) || /(^|\/)(x|y|foo|bar)(\/|$)/.test(path);
}

function lineOf(text, index) {
  let lines = 0;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

/** `//` line comments and `/* *\/` blocks, with the line each starts on; string literals are skipped. */
function slashComments(source) {
  const comments = [];
  let line = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\n') line++;
    else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < source.length && source[i] !== c; i++) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') {
          line++;
          if (c !== '`') break; // an unterminated quote: a regex or prose in a grammar we do not parse
        }
      }
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      comments.push({ text: source.slice(i + 2, stop), line });
      i = stop - 1;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end;
      const text = source.slice(i + 2, stop);
      comments.push({ text, line });
      line += lineOf(text, text.length);
      i = stop + 1;
    }
  }
  return comments;
}

function hashComments(source) {
  return source
    .split('\n')
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => /(^|\s)#/.test(text))
    .map(({ text, line }) => ({ text: text.slice(text.search(/(^|\s)#/)), line }));
}
