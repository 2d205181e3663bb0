import { useEffect, useState } from 'preact/hooks';
import { api, apiText } from '../api.js';
import { describe, Problem } from '../form.js';
import { signSentence, signWords, type ShopSign, type SignState } from '../sign-words.js';

/** How often the page reads the sign again while it is open: it changes by itself at opening and closing time. */
const EVERY_MS = 60_000;

/**
 * The shop's open sign as a customer sees it: the SVG badge its web site embeds (read fresh: browsers may keep
 * the public one a minute) and what it says in words, in the shop's time zone. Read again on `version`'s change
 * (hours just saved) and every minute.
 */
export function LiveSign({ handle, version }: { handle: string; version: number }) {
  const [sign, setSign] = useState<ShopSign | null>(null);
  const [badge, setBadge] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    const path = `/api/v1/shops/${encodeURIComponent(handle)}/sign`;
    api<ShopSign>(path, { key: null, cache: 'no-store' }).then(
      (read) => (setSign(read), setProblem(null)),
      (error) => setProblem(describe(error)),
    );
    apiText(`${path}?format=svg`).then(
      (svg) => setBadge(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => setBadge(null),
    );
  }, [handle, version, tick]);
  return (
    <section class="card" aria-labelledby="sign-now">
      <h2 id="sign-now">What customers see now</h2>
      <Problem problem={problem} />
      {sign && (
        <>
          {badge && <img class="badge" src={badge} alt={`${sign.name}: ${signSentence(sign.sign)}`} width={220} height={40} />}
          <SignLine sign={sign.sign} id="sign-words" />
          <p class="muted">Times in the shop&rsquo;s time zone, {sign.sign.time_zone.replaceAll('_', ' ')}.</p>
        </>
      )}
    </section>
  );
}

/** What a sign says, the state first: "Open now until 5:00 PM.", and its note below. */
export function SignLine({ sign, id }: { sign: SignState; id?: string }) {
  const { state, detail, note } = signWords(sign);
  return (
    <>
      <p class="sign-words" id={id}>
        <strong class={sign.open ? 'is-open' : 'is-closed'}>{state}</strong>
        {sign.open ? ' ' : ', '}
        {detail}.
      </p>
      {note && (
        <p class="sign-note" id={id && `${id}-note`}>
          {note}
        </p>
      )}
    </>
  );
}
