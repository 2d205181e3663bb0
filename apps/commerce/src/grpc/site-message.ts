import type { Site, SitePublication as SitePublicationMessage } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { SitePublication } from '../data/site-repository.js';
import type { SiteState } from '../domain/get-site.js';

export function toSitePublicationMessage(publication: SitePublication): SitePublicationMessage {
  return {
    manifestDigest: publication.manifestDigest,
    filesUploaded: publication.filesUploaded,
    filesUnchanged: publication.filesUnchanged,
    filesDeleted: publication.filesDeleted,
    publishedAt: publication.publishedAt.toISOString(),
    siteUrl: publication.siteUrl,
    target: publication.target,
  };
}

/** The site as the API answers it: never the S3 secret, only its last 4 characters. */
export function toSiteMessage({ settings, lastPublication }: SiteState): Site {
  const { target } = settings;
  return {
    version: BigInt(settings.version),
    sections: settings.sections,
    colors: settings.colors,
    title: settings.title,
    tagline: settings.tagline,
    about: settings.about,
    target: {
      kind:
        target.kind === 'folder'
          ? { $case: 'folder', value: {} }
          : {
              $case: 's3',
              value: {
                endpoint: target.endpoint,
                bucket: target.bucket,
                region: target.region,
                prefix: target.prefix,
                accessKeyId: target.accessKeyId,
                secretAccessKeyLast4: settings.secretLast4 ?? '',
              },
            },
    },
    updatedAt: settings.updatedAt?.toISOString(),
    lastPublication: lastPublication ? toSitePublicationMessage(lastPublication) : undefined,
  };
}
