import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { describe, Problem } from '../form.js';
import type { FeedSummary } from '../federation.js';
import { DiscoverSearch } from './discover-search.js';
import { FeedStatus, type ShopFacts } from './feed-status.js';
import { MerchantPreview } from './merchant-preview.js';
import { PeersList } from './peers-list.js';

/**
 * `/o/:handle/federated-marketplace`: the shop's signed catalog feed (published or not, published again), how
 * customers on any instance find the shop, a search as they run it, and the instances this one exchanges feeds with.
 */
export function FederatedMarketplacePage({ handle }: { handle: string }) {
  const [org, setOrg] = useState<ShopFacts | null>(null);
  const [feed, setFeed] = useState<FeedSummary | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const path = encodeURIComponent(handle);
    api<ShopFacts>(`/api/v1/organizations/${path}`).then(setOrg, (error) => setProblem(describe(error)));
    // Before the first publish the feed is a 404: not published yet.
    api<{ summary: FeedSummary }>(`/api/v1/feeds/${path}`).then(
      (read) => setFeed(read.summary),
      (error) => (error instanceof ApiError && error.status === 404 ? setFeed(null) : setProblem(describe(error))),
    );
  }, [handle]);
  const published = (summary: FeedSummary) => {
    setFeed(summary);
    setVersion((n) => n + 1);
  };
  return (
    <>
      <h1>Federated marketplace</h1>
      <p>Instances of Commerce Toolkit list each other&rsquo;s shops from signed catalog feeds: a customer on any of them can find you.</p>
      <Problem problem={problem} />
      {org && feed !== undefined && <FeedStatus handle={handle} org={org} feed={feed} onPublished={published} />}
      <MerchantPreview handle={handle} version={version} />
      <DiscoverSearch />
      <PeersList />
    </>
  );
}
