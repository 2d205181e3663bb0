import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { siteUrl, type Publication, type Site } from '../site.js';
import { SiteEditor } from './site-editor.js';
import { SitePreview } from './site-preview.js';
import { SitePublish } from './site-publish.js';
import { SiteSummary } from './site-summary.js';

type Organization = { name: string; role: 'owner' | 'admin' | 'staff' };

/**
 * `/o/:handle/site-builder`: the shop's own web site, generated from its profile, menu and hours: whether and
 * where it is published (published again with one button), its texts, colours, sections and publish target
 * edited by an owner or admin and saved with the version read, and a preview of its home page. Staff see it
 * read only.
 */
export function SiteBuilderPage({ handle }: { handle: string }) {
  const [org, setOrg] = useState<Organization | null>(null);
  const [site, setSite] = useState<Site | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Counts the saves, for the preview to be made again after each.
  const [saves, setSaves] = useState(0);
  const read = async () => {
    const fresh = await api<Site>(siteUrl(handle));
    setSite(fresh);
    return fresh;
  };
  useEffect(() => {
    Promise.all([api<Organization>(`/api/v1/organizations/${encodeURIComponent(handle)}`), api<Site>(siteUrl(handle))]).then(
      ([who, kept]) => (setOrg(who), setSite(kept)),
      (error) => setProblem(describe(error)),
    );
  }, [handle]);
  const saved = (answer: Site) => {
    setSite(answer);
    setSaves((n) => n + 1);
  };
  const published = (publication: Publication) => site && setSite({ ...site, last_publication: publication });
  const admin = org !== null && org.role !== 'staff';
  return (
    <>
      <h1>Site builder</h1>
      <p>
        A web site for your shop, made from your menu, hours and settings: choose what it shows and its colours, preview it, and publish it
        as plain files any web host can serve.
      </p>
      <Problem problem={problem} />
      {org && site && (
        <>
          <SitePublish handle={handle} admin={admin} publication={site.last_publication} onPublished={published} />
          {admin ? <SiteEditor handle={handle} site={site} onSaved={saved} onStale={read} /> : <SiteSummary site={site} />}
          <SitePreview handle={handle} version={saves} />
        </>
      )}
    </>
  );
}
