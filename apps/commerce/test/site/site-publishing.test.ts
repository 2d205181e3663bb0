import { lstat, mkdir, mkdtemp, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SitePublication, SiteTargetInput } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Publisher } from '../../src/site/s3-publisher.js';
import { DEFAULT_LOOK, type S3Target } from '../../src/site/site-settings.js';
import { failure, PUBLIC_URL, startCommerceStack, type CommerceStack } from '../commerce-stack.js';
import { startFakeFederation } from './fake-federation.js';

let stack: CommerceStack;
let federation: Awaited<ReturnType<typeof startFakeFederation>>;
let s3: S3rver;
let s3Url = '';
let sitesDir = '';
let s3Dir = '';
/** Each object the store was sent, in order (PUT), as bucket/key. */
const puts: string[] = [];

beforeAll(async () => {
  sitesDir = await mkdtemp(join(tmpdir(), 'ctk-sites-'));
  s3Dir = await mkdtemp(join(tmpdir(), 'ctk-s3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'site' }] });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
  s3.on('event', (event: { Records: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } }[] }) => {
    for (const record of event.Records)
      if (record.eventName === 'ObjectCreated:Put') puts.push(`${record.s3.bucket.name}/${record.s3.object.key}`);
  });
  federation = await startFakeFederation();
  stack = await startCommerceStack({
    FEDERATION_GRPC_URL: federation.url,
    COMMERCE_SITES_DIR: sitesDir,
    COMMERCE_SITES_KEEP_VERSIONS: '1',
    // The test's store runs on this machine, a loopback address: allowed here, refused by default (below).
    COMMERCE_SITE_ALLOW_PRIVATE_STORES: 'true',
  });
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await federation?.close();
  await s3?.close();
  await rm(sitesDir, { recursive: true, force: true });
  await rm(s3Dir, { recursive: true, force: true });
});

/** What the gateway gives a publish: the shop's profile, its commerce key and the Buy button's script. */
const facts = (org: OrgRef) => ({
  org,
  profile: { name: 'Blue Bottle Cafe', timeZone: 'UTC', paymail: `${org.handle}@pay.example.com` },
  inputs: {
    commercePublicKey: 'ctk_pk_site_test',
    checkoutScriptUrl: `${PUBLIC_URL}/checkout/v1/checkout.js`,
    checkoutScriptIntegrity: 'sha384-test',
  },
  publicUrl: PUBLIC_URL,
});

const publish = async (org: OrgRef): Promise<SitePublication> =>
  (await stack.client.publishSite(facts(org), { timeoutMs: 30_000 })).publication!;

const look = {
  sections: [...DEFAULT_LOOK.sections],
  colors: { background: '#fffaf3', text: '#2b2118', accent: '#8a3b12', accentText: '#ffffff' },
  title: '',
  tagline: 'Coffee',
  about: '',
};
const s3Target = (secret?: string, change: Record<string, string> = {}): SiteTargetInput => ({
  kind: {
    $case: 's3',
    value: {
      endpoint: s3Url,
      bucket: 'site',
      region: '',
      prefix: 'shop/',
      accessKeyId: 'S3RVER',
      secretAccessKey: secret ?? '',
      ...change,
    },
  },
});

async function cafe() {
  const org = await stack.walletOrg();
  const latte = await stack.item(org, { name: 'Latte', priceCents: 450n, category: 'Coffee' });
  const scone = await stack.item(org, { name: 'Scone', priceCents: 325n, category: 'Bakery' });
  return { org, latte, scone };
}

describe('publishing a site to a folder', () => {
  it('writes a whole version and switches a link to it; a second publish writes nothing; a new item writes its page and the index', async () => {
    const { org, latte, scone } = await cafe();
    const first = await publish(org);
    expect(first).toMatchObject({ target: 'folder', filesUploaded: 4, filesUnchanged: 0, filesDeleted: 0 });
    expect(first.manifestDigest).toMatch(/^[0-9a-f]{64}$/);
    const served = join(sitesDir, org.handle);
    expect(first.siteUrl).toBe(`file://${served}/index.html`);
    expect((await lstat(served)).isSymbolicLink()).toBe(true);
    expect(await readlink(served)).toBe(`.versions/${org.handle}/${first.manifestDigest}`);
    const manifest = JSON.parse(await readFile(join(served, 'manifest.json'), 'utf8'));
    expect(manifest.digest).toBe(first.manifestDigest);
    expect(Object.keys(manifest.files)).toEqual([
      expect.stringMatching(/^assets\/site-/),
      'index.html',
      'items/latte.html',
      'items/scone.html',
    ]);
    const index = await readFile(join(served, 'index.html'), 'utf8');
    expect(index).toContain(`item="${latte.id}" commerce-key="ctk_pk_site_test"`);
    expect(index).toContain(`item="${scone.id}"`);

    // Nothing changed: nothing written, the same version served.
    const again = await publish(org);
    expect(again).toMatchObject({ manifestDigest: first.manifestDigest, filesUploaded: 0, filesUnchanged: 4 });

    // A reader that resolved the old version keeps reading it whole after the switch.
    const oldVersion = await realpath(served);
    const muffin = await stack.item(org, { name: 'Muffin', priceCents: 300n, category: 'Bakery' });
    const third = await publish(org);
    expect(third).toMatchObject({ filesUploaded: 2, filesUnchanged: 3, filesDeleted: 0 });
    expect(await readlink(served)).toBe(`.versions/${org.handle}/${third.manifestDigest}`);
    expect(await readFile(join(served, 'items/muffin.html'), 'utf8')).toContain(`item="${muffin.id}"`);
    expect(await readFile(join(oldVersion, 'index.html'), 'utf8')).toBe(index);
    // Unchanged files are the old version's, shared (a hard link), not written again.
    const [shared, original] = await Promise.all([lstat(join(served, 'items/latte.html')), lstat(join(oldVersion, 'items/latte.html'))]);
    expect(shared.ino).toBe(original.ino);

    // A fourth version: the oldest (beyond the one kept besides the current) is removed after the switch.
    await stack.pos.replaceMenu({ org, expectedVersion: 0n, sections: [{ name: 'Today', itemIds: [latte.id, muffin.id], items: [] }] });
    const fourth = await publish(org);
    expect(fourth).toMatchObject({ filesUploaded: 1, filesUnchanged: 3, filesDeleted: 1 });
    await expect(lstat(join(served, 'items/scone.html'))).rejects.toThrow(/ENOENT/);
    await expect(lstat(oldVersion)).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(sitesDir, '.versions', org.handle, third.manifestDigest))).resolves.toBeDefined();

    const { site } = await stack.client.getSite({ org });
    expect(site?.lastPublication).toEqual(fourth);
  });

  it('refuses to replace a folder that is not a site it published, and writes nothing', async () => {
    const { org } = await cafe();
    await mkdir(join(sitesDir, org.handle));
    const refused = await failure(publish(org));
    expect(refused).toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining('is not a site this service published'),
    });
    await expect(lstat(join(sitesDir, '.versions', org.handle))).rejects.toThrow(/ENOENT/);
    // The hold is released: the next publish is refused for the same reason, not as a conflict.
    expect(await failure(publish(org))).toMatchObject({ code: 'failed_precondition' });
  });

  it('one publish at a time: a second while the first runs is a conflict', async () => {
    const { org } = await cafe();
    federation.state.delayMs = 500;
    try {
      const results = await Promise.allSettled([publish(org), publish(org)]);
      const codes = results
        .map((result) => (result.status === 'fulfilled' ? 'published' : (result.reason as { code: string }).code))
        .sort();
      expect(codes).toEqual(['conflict', 'published']);
    } finally {
      federation.state.delayMs = 0;
    }
    await expect(publish(org)).resolves.toMatchObject({ filesUploaded: 0 });
  });

  it('refuses a menu with nothing to buy with: no commerce key', async () => {
    const { org } = await cafe();
    const noKey = { ...facts(org), inputs: { ...facts(org).inputs, commercePublicKey: '' } };
    expect(await failure(stack.client.publishSite(noKey))).toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining(`POST /api/v1/orgs/${org.handle}/commerce-key`),
    });
  });
});

describe('publishing a site to S3-compatible storage', () => {
  it('seals the secret and never answers it; puts every file, then only what changed, the manifest last; deletes after the switch', async () => {
    const { org, latte } = await cafe();
    const saved = await stack.client.replaceSite({ org, expectedVersion: 0n, site: { ...look, target: s3Target('S3RVER') } });
    expect(saved.site?.version).toBe(1n);
    expect(saved.site?.target?.kind).toEqual({
      $case: 's3',
      value: { endpoint: s3Url, bucket: 'site', region: 'us-east-1', prefix: 'shop/', accessKeyId: 'S3RVER', secretAccessKeyLast4: 'RVER' },
    });
    expect(JSON.stringify(saved, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))).not.toMatch(
      /secretAccessKey"/,
    );

    puts.length = 0;
    const first = await publish(org);
    expect(first).toMatchObject({ target: 's3', filesUploaded: 4, filesUnchanged: 0, siteUrl: `${s3Url}/site/shop/index.html` });
    expect(puts).toHaveLength(5);
    expect(puts.at(-1)).toBe('site/shop/manifest.json');
    expect(puts.indexOf('site/shop/index.html')).toBeGreaterThan(puts.indexOf('site/shop/items/latte.html'));
    expect(puts[0]).toMatch(/^site\/shop\/assets\/site-[0-9a-f]{16}\.css$/);

    // Nothing changed: no PUT at all.
    puts.length = 0;
    expect(await publish(org)).toMatchObject({ filesUploaded: 0, filesUnchanged: 4 });
    expect(puts).toEqual([]);

    // One item more: its page, then the index, then the manifest.
    await stack.item(org, { name: 'Muffin', priceCents: 300n, category: 'Bakery' });
    puts.length = 0;
    expect(await publish(org)).toMatchObject({ filesUploaded: 2, filesUnchanged: 3 });
    expect(puts).toEqual(['site/shop/items/muffin.html', 'site/shop/index.html', 'site/shop/manifest.json']);

    // The scone leaves the menu: the index and manifest are put, then its page is deleted.
    const client = new S3Client({
      endpoint: s3Url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const read = (key: string) =>
      client.send(new GetObjectCommand({ Bucket: 'site', Key: key })).then((object) => object.Body!.transformToString());
    await expect(read('shop/items/scone.html')).resolves.toContain('Scone');
    await stack.pos.replaceMenu({ org, expectedVersion: 0n, sections: [{ name: 'Coffee', itemIds: [latte.id], items: [] }] });
    puts.length = 0;
    expect(await publish(org)).toMatchObject({ filesUploaded: 1, filesDeleted: 2 });
    expect(puts).toEqual(['site/shop/index.html', 'site/shop/manifest.json']);
    await expect(read('shop/items/scone.html')).rejects.toThrow(/NoSuchKey|does not exist/);
    const manifest = JSON.parse(await read('shop/manifest.json'));
    expect(Object.keys(manifest.files)).toEqual([expect.stringMatching(/^assets\//), 'index.html', 'items/latte.html']);
    client.destroy();
  });

  it('keeps the secret when the target is sent again without it, and asks for it when the store changes', async () => {
    const { org } = await cafe();
    await stack.client.replaceSite({ org, expectedVersion: 0n, site: { ...look, target: s3Target('S3RVER') } });
    const kept = await stack.client.replaceSite({ org, expectedVersion: 1n, site: { ...look, tagline: 'New', target: s3Target() } });
    expect(kept.site).toMatchObject({ version: 2n, tagline: 'New' });
    await expect(publish(org)).resolves.toMatchObject({ target: 's3' });
    expect(
      await failure(
        stack.client.replaceSite({ org, expectedVersion: 2n, site: { ...look, target: s3Target(undefined, { bucket: 'other' }) } }),
      ),
    ).toMatchObject({
      code: 'validation_failed',
      details: { field: 'target.secret_access_key' },
    });
    // A stale version changes nothing.
    expect(
      await failure(
        stack.client.replaceSite({ org, expectedVersion: 1n, site: { ...look, target: { kind: { $case: 'folder', value: {} } } } }),
      ),
    ).toMatchObject({
      code: 'precondition_failed',
      details: { current_version: 2 },
    });
    expect((await stack.client.getSite({ org })).site).toMatchObject({ version: 2n, tagline: 'New' });
  });

  it('a store that refuses the keys is a 409 naming its refusal; one that cannot be reached is 503; nothing is switched', async () => {
    const { org } = await cafe();
    await stack.client.replaceSite({ org, expectedVersion: 0n, site: { ...look, target: s3Target('S3RVER', { accessKeyId: 'UNKNOWN' }) } });
    expect(await failure(publish(org))).toMatchObject({ code: 'failed_precondition', details: { store_error: 'InvalidAccessKeyId' } });
    await stack.client.replaceSite({
      org,
      expectedVersion: 1n,
      site: { ...look, target: s3Target('S3RVER', { endpoint: 'http://127.0.0.1:1' }) },
    });
    expect(await failure(publish(org))).toMatchObject({ code: 'unavailable' });
    expect((await stack.client.getSite({ org })).site?.lastPublication).toBeUndefined();
  });
});

describe("the S3 store's address, checked as the connection is made", () => {
  const target = (endpoint: string): S3Target => ({
    kind: 's3',
    endpoint,
    bucket: 'site',
    region: 'us-east-1',
    prefix: 'never-published/',
    accessKeyId: 'S3RVER',
  });
  const reach = async (endpoint: string, allowPrivate: boolean) =>
    failure((async () => s3Publisher(target(endpoint), 'S3RVER', { allowPrivate }).current())());

  it('refuses a store on a loopback address without the operator allowance, by address and by a name resolving to it, and sends it nothing', async () => {
    const port = new URL(s3Url).port;
    const sent = puts.length;
    expect(await reach(s3Url, false)).toMatchObject({
      code: 'failed_precondition',
      details: { field: 'target.endpoint', range: 'loopback' },
      message: expect.stringContaining('COMMERCE_SITE_ALLOW_PRIVATE_STORES=true'),
    });
    expect(await reach(`http://localhost:${port}`, false)).toMatchObject({
      code: 'failed_precondition',
      details: { field: 'target.endpoint', range: 'loopback' },
      message: expect.stringContaining('localhost resolves to a loopback address'),
    });
    expect(puts.length).toBe(sent);
    // The same store with the allowance: reached (this prefix has no manifest yet).
    await expect(s3Publisher(target(`http://localhost:${port}`), 'S3RVER', { allowPrivate: true }).current()).resolves.toBeUndefined();
  });

  it('never reaches a link-local (cloud metadata) address, even with the allowance', async () => {
    expect(await reach('https://169.254.169.254', true)).toMatchObject({
      code: 'failed_precondition',
      details: { field: 'target.endpoint', range: 'linkLocal' },
      message: expect.stringContaining('never allowed'),
    });
  });
});
