import { COLOR_FIELDS, SECTION_NAMES, type Site } from '../site.js';

/** The site's settings as staff see them: read only. */
export function SiteSummary({ site }: { site: Site }) {
  const { target } = site;
  return (
    <section class="card" aria-labelledby="summary-title">
      <h2 id="summary-title">Settings</h2>
      <p class="muted">Read only: the shop’s owner or an admin changes them.</p>
      <dl class="facts site-summary" aria-label="The site's settings">
        <div>
          <dt>Title</dt>
          <dd>{site.title || 'The shop’s name'}</dd>
        </div>
        <div>
          <dt>Tagline</dt>
          <dd>{site.tagline || 'None'}</dd>
        </div>
        <div>
          <dt>Sections, in order</dt>
          <dd>{site.sections.map((id) => SECTION_NAMES[id]).join(', ')}</dd>
        </div>
        <div>
          <dt>Published to</dt>
          <dd>{target.kind === 'folder' ? 'A folder on this server' : `${target.bucket} at ${target.endpoint}`}</dd>
        </div>
        {COLOR_FIELDS.map(({ key, label }) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>
              <span class="swatch" style={{ background: site.colors[key] }} aria-hidden="true" /> {site.colors[key]}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
