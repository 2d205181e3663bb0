import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import lazy from 'preact-iso/lazy';
import { useRoute } from 'preact-iso/router';
import { capabilityMap, notBuilt, pageOf, standing, type Capability, type Rung } from '../capabilities.js';
import { api } from '../api.js';
import { describe } from '../form.js';
import { setShopTimeZone } from '../format.js';
import { session } from '../session.js';
import { EscrowPage } from './escrow.js';
import { ItemsPage } from './items.js';
import { JointTransactionsPage } from './joint-transactions.js';
import { LedgerPage } from './ledger.js';
import { FederatedMarketplacePage } from './federated-marketplace.js';
import { LoyaltyPage } from './loyalty.js';
import { OpenSignPage } from './open-sign.js';
import { OrdersPage } from './orders.js';
import { PaidApiPage } from './paid-api.js';
import { PayLinksPage } from './pay-links.js';
import { PosCardsPage } from './pos-cards.js';
import { PrepaidCardsPage } from './prepaid-cards.js';
import { ReferralLinksPage } from './referral-links.js';
import { SignInFirst } from './sign-in-first.js';
import { SiteBuilderPage } from './site-builder.js';
import { StableValuePage } from './stable-value.js';
import { TicketsPage } from './tickets.js';
import { TimelockedRefundPage } from './timelocked-refund.js';
import { TokensPage } from './tokens.js';

/** The reports' charts (Chart.js) load with their page only. */
const ReportsPage = lazy(() => import('./reports.js').then((m) => m.ReportsPage));

/** The capabilities with a working page of their own (and the orders, the point of sale's); the others show what their map says. */
const OWN_PAGES: Record<string, (props: { handle: string }) => JSX.Element> = {
  pos: ItemsPage,
  orders: OrdersPage,
  'pay-links': PayLinksPage,
  'prepaid-cards': PrepaidCardsPage,
  'commerce-api': TicketsPage,
  loyalty: LoyaltyPage,
  'cards-and-wallets': PosCardsPage,
  'paygate-402': PaidApiPage,
  ledger: LedgerPage,
  reports: ReportsPage,
  'open-sign': OpenSignPage,
  'federated-marketplace': FederatedMarketplacePage,
  'site-builder': SiteBuilderPage,
  'stable-value': StableValuePage,
  tokens: TokensPage,
  escrow: EscrowPage,
  'timelocked-refund': TimelockedRefundPage,
  'referral-covenant': ReferralLinksPage,
  psbt: JointTransactionsPage,
};

/**
 * `/o/:handle/:page`: one capability of the organisation: its own page where it has one, else what its map
 * says: what it does, whether this organisation has set it up and what to do next, and the API routes that
 * serve it today.
 */
export function CapabilityPage() {
  const { params } = useRoute();
  const handle = params.handle!;
  const Own = OWN_PAGES[params.page!];
  // The shop's times and days are in its own time zone: read before its page shows any (once a tab, then kept).
  const [zoneOf, setZoneOf] = useState<string | null>(null);
  useEffect(() => {
    if (!session.signedIn()) return;
    const done = (zone: string | null) => {
      setShopTimeZone(zone);
      if (zone) rememberShopTimeZone(handle, zone);
      setZoneOf(handle);
    };
    api<{ time_zone: string }>(`/api/v1/organizations/${encodeURIComponent(handle)}`).then(
      (org) => done(org.time_zone),
      () => done(null),
    );
  }, [handle]);
  if (!Own || !session.signedIn()) return <CapabilityMapPage />;
  return zoneOf === handle || knownZone(handle) ? <Own handle={handle} /> : <p aria-busy="true">Loading…</p>;
}

const ZONE_KEY = 'ctk.timeZone.';

/** What this tab knows of a shop's time zone: read on its pages, or just saved in Settings. */
export function rememberShopTimeZone(handle: string, zone: string): void {
  sessionStorage.setItem(`${ZONE_KEY}${handle}`, zone);
}

/** Whether this tab read the shop's time zone before (a reload): then it is the pages' at once, and read again behind. */
function knownZone(handle: string): boolean {
  const zone = sessionStorage.getItem(`${ZONE_KEY}${handle}`);
  if (zone) setShopTimeZone(zone);
  return Boolean(zone);
}

function CapabilityMapPage() {
  const { params } = useRoute();
  const handle = params.handle!;
  const [found, setFound] = useState<{ capability: Capability; rung: Rung } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!session.signedIn()) return;
    setFound(null);
    setProblem(null);
    capabilityMap(handle).then(
      (map) => {
        for (const rung of map.rungs)
          for (const capability of rung.capabilities)
            if (pageOf(capability, handle) === `/o/${handle}/${params.page}`) return setFound({ capability, rung });
        setProblem('This organisation has no such page.');
      },
      (error) => setProblem(describe(error)),
    );
  }, [handle, params.page]);

  if (!session.signedIn()) return <SignInFirst />;
  if (problem)
    return (
      <section class="card">
        <h1>Not available</h1>
        <p class="problem" role="alert">
          {problem}
        </p>
        <p>
          <a href="/">Back to your shops</a>
        </p>
      </section>
    );
  if (!found) return <p aria-busy="true">Loading…</p>;
  const { capability, rung } = found;
  return (
    <>
      <p class="muted">
        <a href="/">{handle}</a> · Step {rung.step}: {rung.title}
      </p>
      <h1>
        {capability.title} <span class="tag">{standing(capability)}</span>
      </h1>
      <section class="card" aria-labelledby="what">
        <h2 id="what">What it does for you</h2>
        <p>{capability.for_you}</p>
        {capability.maturity !== 'live' && <p class="muted">Maturity: {capability.maturity}.</p>}
      </section>
      <section class="card" aria-labelledby="next">
        <h2 id="next">{notBuilt(capability) ? 'Not built yet' : capability.set_up === false ? 'What to do next' : 'Using it'}</h2>
        {capability.next_step && <p>{capability.next_step}</p>}
        {capability.note && <p>{capability.note}</p>}
        {!capability.next_step && !capability.note && <p>It is ready: nothing is missing for this organisation.</p>}
        {capability.endpoints.length > 0 && (
          <>
            <p>For now, through the API:</p>
            <ul class="endpoints">
              {capability.endpoints.map((e) => (
                <li key={`${e.method} ${e.path}`}>
                  <code>
                    {e.method} {e.path.replace(':handle', handle)}
                  </code>
                </li>
              ))}
            </ul>
            <p>
              <a href="/docs">Open the API documentation</a>
            </p>
          </>
        )}
      </section>
    </>
  );
}
