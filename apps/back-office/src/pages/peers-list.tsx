import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { formatDateTime } from '../format.js';
import type { Peers } from '../federation.js';

/** This instance and the peer instances it exchanges feeds with (`GET /api/v1/peers`): where else the shop is listed. */
export function PeersList() {
  const [peers, setPeers] = useState<Peers | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<Peers>('/api/v1/peers').then(setPeers, (error) => setProblem(describe(error)));
  }, []);
  return (
    <section class="card" aria-labelledby="peers-title">
      <h2 id="peers-title">Instances that list you</h2>
      <Problem problem={problem} />
      {peers && (
        <>
          <p>
            This instance: <code class="address">{peers.self.url}</code>
          </p>
          {peers.peers.length === 0 ? (
            <p class="muted">
              No peers yet: your shop is listed here only. Other instances carry your feed once this instance&rsquo;s operator connects it
              to them.
            </p>
          ) : (
            <table class="list">
              <caption class="visually-hidden">Peer instances</caption>
              <thead>
                <tr>
                  <th scope="col">Instance</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Shops</th>
                </tr>
              </thead>
              <tbody>
                {peers.peers.map((peer) => (
                  <tr key={peer.url}>
                    <td>
                      <code>{peer.url}</code>
                    </td>
                    <td>{peer.last_seen_at ? formatDateTime(peer.last_seen_at) : 'not reached yet'}</td>
                    <td>{peer.feeds}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
