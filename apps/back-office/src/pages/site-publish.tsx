import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Problem, useSubmit } from '../form.js';
import { formatDateTime } from '../format.js';
import { asAdminOnly, siteUrl, type Publication } from '../site.js';

type Props = { handle: string; admin: boolean; publication: Publication | null; onPublished: (publication: Publication) => void };

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** Whether the site is published, where and when, what the last publish wrote; published (again) with one button. */
export function SitePublish({ handle, admin, publication, onPublished }: Props) {
  const [done, setDone] = useState<string | null>(null);
  const publish = useSubmit(async () => {
    setDone(null);
    let answer: Publication;
    try {
      answer = await api<Publication>(`${siteUrl(handle)}/publish`, { method: 'POST' });
    } catch (error) {
      throw asAdminOnly(error, 'publish the site');
    }
    onPublished(answer);
    setDone(
      answer.files_uploaded === 0
        ? `Published: nothing had changed, so no file was uploaded (${files(answer.files_unchanged)} unchanged).`
        : `Published: ${files(answer.files_uploaded)} uploaded, ${files(answer.files_unchanged)} unchanged.`,
    );
  });
  const web = publication && /^https?:/.test(publication.site_url);
  return (
    <section class="card" aria-labelledby="publish-title">
      <h2 id="publish-title">Your site</h2>
      {publication ? (
        <>
          <p>
            {web ? 'Published at ' : 'Published to a folder on this server, for any web host to serve: '}
            {web ? <a href={publication.site_url}>{publication.site_url}</a> : <code class="address">{publication.site_url}</code>}
          </p>
          <dl class="facts" aria-label="The last publish">
            <div>
              <dt>Published</dt>
              <dd>{formatDateTime(publication.published_at)}</dd>
            </div>
            <div>
              <dt>Uploaded</dt>
              <dd>{files(publication.files_uploaded)}</dd>
            </div>
            <div>
              <dt>Unchanged</dt>
              <dd>{files(publication.files_unchanged)}</dd>
            </div>
            <div>
              <dt>Removed</dt>
              <dd>{files(publication.files_deleted)}</dd>
            </div>
          </dl>
        </>
      ) : (
        <p class="next">Not published yet: customers cannot see your site.</p>
      )}
      {admin ? (
        <>
          <Problem problem={publish.problem} />
          <form class="actions" onSubmit={publish.submit}>
            <button type="submit" disabled={publish.busy}>
              {publish.busy ? 'Publishing…' : publication ? 'Publish again' : 'Publish my site'}
            </button>
            {done && <span role="status">{done}</span>}
          </form>
          <p class="hint">Publishes what is saved. Only files that changed are uploaded; publish again after you change your menu.</p>
        </>
      ) : (
        <p class="muted">Only the shop’s owner or an admin can change or publish the site.</p>
      )}
    </section>
  );
}
