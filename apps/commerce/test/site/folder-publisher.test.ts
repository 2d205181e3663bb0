import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderPublisher } from '../../src/site/folder-publisher.js';
import { generateSite } from '../../src/site/generate-site.js';
import { publishFiles } from '../../src/site/publisher.js';
import { cafeSource } from './site-fixture.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ctk-folder-publisher-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a folder target', () => {
  it('answers where a static host serves the site when COMMERCE_SITES_BASE_URL says so', async () => {
    const publisher = folderPublisher(join(dir, 'sites'), 'blue-bottle', { keep: 2, baseUrl: 'https://sites.example.com/' });
    expect(publisher.siteUrl).toBe('https://sites.example.com/blue-bottle/');
    expect(await publisher.current()).toBeUndefined();
    const published = await publishFiles(publisher, generateSite(cafeSource()));
    expect(published).toMatchObject({ uploaded: 5, unchanged: 0, deleted: 0 });
    expect(await publisher.current()).toEqual(published.manifest);
    expect(await readFile(join(dir, 'sites', 'blue-bottle', 'index.html'), 'utf8')).toContain('Blue Bottle Cafe');
  });

  it('that cannot be written is 503 naming the cause, and switches nothing', async () => {
    const notADirectory = join(dir, 'a-file');
    await writeFile(notADirectory, 'not a folder');
    const refused = await publishFiles(folderPublisher(notADirectory, 'blue-bottle', { keep: 2 }), generateSite(cafeSource())).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'unavailable', details: { folder_error: 'ENOTDIR' } });
    expect(await readFile(notADirectory, 'utf8')).toBe('not a folder');
  });
});
