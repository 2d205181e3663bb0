import { describe, expect, it } from 'vitest';
import { diffManifests, manifestJson, manifestOf, parseManifest, sha256 } from '../../src/site/manifest.js';

const file = (path: string, body: string) => ({ path, body: Buffer.from(body), contentType: 'text/html' });

describe('the manifest', () => {
  it('lists every file by path with its sha256, in path order, and its digest is that of the list', () => {
    const manifest = manifestOf([file('items/b.html', 'b'), file('index.html', 'i')]);
    expect(manifest.files).toEqual({ 'index.html': sha256('i'), 'items/b.html': sha256('b') });
    expect(Object.keys(manifest.files)).toEqual(['index.html', 'items/b.html']);
    expect(manifest.digest).toBe(sha256(JSON.stringify(manifest.files)));
    // The order files come in changes nothing.
    expect(manifestOf([file('index.html', 'i'), file('items/b.html', 'b')])).toEqual(manifest);
  });

  it('reads back what it wrote, and refuses a manifest whose digest is not its files', () => {
    const manifest = manifestOf([file('index.html', 'i')]);
    expect(parseManifest(manifestJson(manifest).toString())).toEqual(manifest);
    const tampered = JSON.parse(manifestJson(manifest).toString());
    tampered.files['index.html'] = sha256('other');
    expect(parseManifest(JSON.stringify(tampered))).toBeUndefined();
    expect(parseManifest('not json')).toBeUndefined();
    expect(parseManifest(JSON.stringify({ digest: 'x', files: [] }))).toBeUndefined();
    expect(parseManifest(undefined)).toBeUndefined();
  });

  it('diffs against the last manifest: new and changed files to write, the same ones left, the gone ones to remove', () => {
    const before = manifestOf([file('index.html', 'v1'), file('items/a.html', 'a'), file('items/gone.html', 'g')]);
    const after = manifestOf([file('index.html', 'v2'), file('items/a.html', 'a'), file('items/new.html', 'n')]);
    expect(diffManifests(before, after)).toEqual({
      changed: ['index.html', 'items/new.html'],
      unchanged: ['items/a.html'],
      removed: ['items/gone.html'],
    });
    expect(diffManifests(undefined, after)).toEqual({ changed: Object.keys(after.files), unchanged: [], removed: [] });
    expect(diffManifests(after, after)).toEqual({ changed: [], unchanged: Object.keys(after.files), removed: [] });
  });
});
