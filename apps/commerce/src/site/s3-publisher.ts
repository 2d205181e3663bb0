import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import http from 'node:http';
import https from 'node:https';
import { AddressNotAllowed, AppError, checkedLookup, literalAddressProblem, type AddressClass } from '@ctk/shared';
import { manifestJson, MANIFEST_PATH, parseManifest } from './manifest.js';
import type { PublishPlan, Publisher } from './publisher.js';
import type { S3Target } from './site-settings.js';

/** Files put at once. */
const PARALLEL_PUTS = 4;
/** The store's own refusals of the settings (not of its health): the admin changes the target. */
const REFUSALS = new Set([
  'AccessDenied',
  'NoSuchBucket',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'PermanentRedirect',
  'AuthorizationHeaderMalformed',
]);

/**
 * A site in a bucket of an S3-compatible store, under its prefix (docs/decisions/0035-site-builder.md).
 * Objects are the files at their paths, so the bucket serves as a static website. A publish puts what
 * changed in an order that keeps every link whole: the content-addressed stylesheet first, then item
 * pages, then index.html, then manifest.json (what the next publish compares with); objects the new
 * version no longer has are deleted only after that.
 */
export function s3Publisher(target: S3Target, secretAccessKey: string, options: { allowPrivate: boolean }): Publisher {
  const host = new URL(target.endpoint).hostname;
  const literal = literalAddressProblem(host, options.allowPrivate);
  if (literal) throw addressRefused(host, 'is', literal);
  // Every connection goes to an address checked as it is resolved (no window for DNS to change in between).
  const lookup = checkedLookup(options.allowPrivate);
  const s3 = new S3Client({
    endpoint: target.endpoint,
    region: target.region,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey },
    requestHandler: { httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) },
    // Path-style addressing and checksums only where required: what every S3-compatible store reads.
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const key = (path: string) => `${target.prefix}${path}`;
  const put = (path: string, body: Buffer, contentType: string, cacheControl: string) =>
    storeCall(() =>
      s3.send(
        new PutObjectCommand({ Bucket: target.bucket, Key: key(path), Body: body, ContentType: contentType, CacheControl: cacheControl }),
      ),
    );
  return {
    kind: 's3',
    siteUrl: `${target.endpoint}/${target.bucket}/${target.prefix}index.html`,
    async current() {
      try {
        const object = await s3.send(new GetObjectCommand({ Bucket: target.bucket, Key: key(MANIFEST_PATH) }));
        return parseManifest(await object.Body?.transformToString('utf8'));
      } catch (error) {
        if (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)) return undefined;
        throw storeError(error);
      }
    },
    async apply(plan: PublishPlan) {
      const changed = new Set(plan.diff.changed);
      const files = plan.files.filter((file) => changed.has(file.path));
      const stage = (file: { path: string }) => (file.path === 'index.html' ? 2 : file.path.endsWith('.html') ? 1 : 0);
      for (const step of [0, 1, 2]) {
        const batch = files.filter((file) => stage(file) === step);
        for (let at = 0; at < batch.length; at += PARALLEL_PUTS)
          await Promise.all(
            batch
              .slice(at, at + PARALLEL_PUTS)
              .map((file) => put(file.path, file.body, file.contentType, step === 0 ? 'public, max-age=31536000, immutable' : 'no-cache')),
          );
      }
      await put(MANIFEST_PATH, manifestJson(plan.manifest), 'application/json', 'no-cache');
      for (let at = 0; at < plan.diff.removed.length; at += 1000) {
        const objects = plan.diff.removed.slice(at, at + 1000).map((path) => ({ Key: key(path) }));
        await storeCall(() => s3.send(new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: objects, Quiet: true } })));
      }
    },
  };
}

/** An S3 endpoint whose address the operator does not let the service reach (COMMERCE_SITE_ALLOW_PRIVATE_STORES). */
function addressRefused(host: string, how: 'is' | 'resolves to', address: AddressClass): AppError {
  const remedy =
    address.verdict === 'private'
      ? 'An operator can allow stores on private addresses with COMMERCE_SITE_ALLOW_PRIVATE_STORES=true.'
      : 'Such addresses are never allowed.';
  return new AppError(
    'failed_precondition',
    `The S3 endpoint's host ${host} ${how} a ${address.range} address, which is not public: nothing was sent to it. ${remedy}`,
    { field: 'target.endpoint', range: address.range },
  );
}

async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storeError(error);
  }
}

/** The store's answer as the API's error: a refusal of the settings (409), or the store unreachable or failing (503). */
function storeError(error: unknown): AppError {
  if (AppError.is(error)) return error;
  if (error instanceof AddressNotAllowed) return addressRefused(error.hostname, 'resolves to', error.address);
  const name = error instanceof Error ? error.name : 'Error';
  if (error instanceof S3ServiceException && REFUSALS.has(name))
    return new AppError('failed_precondition', `The S3 store refused the site's target: ${name}. Check the endpoint, bucket and keys.`, {
      store_error: name,
    });
  return new AppError('unavailable', `The S3 store could not be reached or failed: ${name}. Nothing was switched; publish again.`, {
    store_error: name,
  });
}
