import type { AnnouncementListener, EventTransport, Listening } from './transport.js';

/**
 * How an app says that something it owns changed, to every replica of every app keeping a copy, and how such an
 * app hears it (decision 0053): its transport's announcements.
 */
export type Announcements = {
  announce(subject: string, data: Uint8Array): Promise<void>;
  listen(subject: string, listener: AnnouncementListener): Listening;
};

const DEAF: Listening = { listening: () => false, stop: () => undefined };

/**
 * The transport's announcements. Without a transport, or on one that cannot announce, nothing is said and
 * nothing is heard: a listener is never listening, so nothing is kept on the strength of it.
 */
export function announcementsOn(transport: EventTransport | undefined): Announcements {
  return {
    async announce(subject, data) {
      await transport?.announce?.(subject, data);
    },
    listen: (subject, listener) => transport?.listen?.(subject, listener) ?? DEAF,
  };
}
