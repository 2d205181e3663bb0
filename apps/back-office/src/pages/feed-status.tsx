import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { Problem, Refusal, useSubmit } from '../form.js';
import { formatDateTime } from '../format.js';
import type { FeedSummary } from '../federation.js';

export type ShopFacts = {
  role: 'owner' | 'admin' | 'staff';
  category: string | null;
  location: { latitude: number; longitude: number } | null;
};

type Props = { handle: string; org: ShopFacts; feed: FeedSummary | null; onPublished: (feed: FeedSummary) => void };

/** Whether the shop's signed catalog feed is published, and how (version, items, when, who signed), published again on request. */
export function FeedStatus({ handle, org, feed, onPublished }: Props) {
  const [done, setDone] = useState(false);
  const publish = useSubmit(async () => {
    setDone(false);
    try {
      onPublished(await api<FeedSummary>('/api/v1/feeds', { method: 'POST', body: { org_handle: handle } }));
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403)
        throw new Refusal("Only the shop's owner or an admin can publish the catalog. Ask one of them to do it.");
      throw error;
    }
  });
  return (
    <section class="card" aria-labelledby="feed-title">
      <h2 id="feed-title">Your catalog feed</h2>
      <p>Publish your catalog and customers on every instance of the federation can find your shop, its items and whether it is open.</p>
      {feed ? (
        <dl class="facts" aria-label="The published feed">
          <div>
            <dt>Version</dt>
            <dd>{feed.sequence}</dd>
          </div>
          <div>
            <dt>Items</dt>
            <dd>{feed.item_count}</dd>
          </div>
          <div>
            <dt>Published</dt>
            <dd>{formatDateTime(feed.published_at)}</dd>
          </div>
          <div>
            <dt>Signed by</dt>
            <dd>{feed.merchant_signed ? 'This instance and your wallet' : 'This instance only'}</dd>
          </div>
        </dl>
      ) : (
        <p class="next">Not published yet: no other instance lists your shop.</p>
      )}
      {org.location ? (
        <p class="muted">
          Listed {org.category ? `as ${org.category} ` : ''}at {org.location.latitude}, {org.location.longitude}, from your{' '}
          <a href="/settings">Settings</a>.
        </p>
      ) : (
        <p class="notice">
          Your shop has no place on the map yet, so customers nearby will not find it. Add it and your category in{' '}
          <a href="/settings">Settings</a>, then publish again.
        </p>
      )}
      <Problem problem={publish.problem} />
      <form class="actions" onSubmit={publish.submit}>
        <button type="submit" disabled={publish.busy}>
          {publish.busy ? 'Publishing…' : feed ? 'Publish again' : 'Publish my catalog'}
        </button>
        {feed && <a href={feed.feed_url}>The signed feed (JSON)</a>}
        {done && <span role="status">Published: version {feed?.sequence}.</span>}
      </form>
      <p class="hint">Publish again after you change items or prices; hours you save are signed into it by themselves.</p>
    </section>
  );
}
