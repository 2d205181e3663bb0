// A TCP load balancer in front of an app's replicas, as a Kubernetes Service (kube-proxy) is: callers use
// its one address, each new connection goes to the next ready replica, and a replica that is down is
// skipped. A connection is not moved once made: when its replica dies the caller sees it close and
// connects again (the gateway's gRPC channel does, at its next call).
import { createServer, Socket } from 'node:net';

/**
 * Listens on host:port (0: a free one) and spreads connections over `replicas()` (each `{ ready, port }`).
 * Resolves with `{ port, close() }` once listening.
 */
export async function startBalancer({ host = '127.0.0.1', port = 0, replicas }) {
  let next = 0;
  const sockets = new Set();
  const track = (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  /** Connects to a ready replica, trying each once from the next in turn; undefined when none answers. */
  const upstream = async () => {
    const ready = replicas().filter((replica) => replica.ready);
    for (let tried = 0; tried < ready.length; tried++) {
      const replica = ready[next++ % ready.length];
      const socket = await new Promise((resolve) => {
        const attempt = new Socket();
        attempt.once('connect', () => resolve(attempt));
        attempt.once('error', () => resolve(undefined));
        attempt.connect(replica.port, '127.0.0.1');
      });
      if (socket) return socket;
    }
    return undefined;
  };
  const server = createServer({ pauseOnConnect: true }, async (client) => {
    track(client);
    client.on('error', () => client.destroy());
    const target = await upstream();
    if (!target || client.destroyed) {
      target?.destroy();
      client.destroy();
      return;
    }
    track(target);
    target.on('error', () => target.destroy());
    target.once('close', () => client.destroy());
    client.once('close', () => target.destroy());
    client.pipe(target);
    target.pipe(client);
    client.resume();
  });
  await new Promise((listening, failed) => {
    server.once('error', failed);
    server.listen(port, host, listening);
  });
  return {
    port: server.address().port,
    close: () =>
      new Promise((closed) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => closed());
      }),
  };
}
