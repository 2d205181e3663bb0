import type { FederationServiceImplementation } from '@ctk/proto/ctk/federation/v1/federation';
import { AppError, orgOf } from '@ctk/shared';
import {
  discoverNearby,
  getMerchant,
  listCategories,
  listCategoryMerchants,
  listFeatured,
  searchCatalog,
  type DiscoveryContext,
} from '../discovery/discover.js';
import { getSetup } from '../domain/get-setup.js';
import { fromHoursMessage, toHoursMessage } from '../open-sign/hours-message.js';
import { getSign, readHours, replaceHours } from '../open-sign/shop-hours.js';
import { exchangePeers, listPeers } from '../peers/exchange-peers.js';
import type { PeerContext } from '../peers/peer-directory.js';
import { createPin, listNearbyPins, type PinContext } from '../pins/pins.js';
import { carryFeed, type CarryContext } from '../publishing/carry-feed.js';
import { publishFeed, republishIfPublished, type PublishContext } from '../publishing/publish-feed.js';
import { getFeed, getFeedNostrEvents, listFeeds } from '../publishing/read-feeds.js';

export type FederationContext = {
  publish: PublishContext;
  carry: CarryContext;
  peers: PeerContext;
  discovery: DiscoveryContext;
  pins: PinContext;
};

export function federationService(context: FederationContext): FederationServiceImplementation {
  const { prisma, now } = context.publish;
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(prisma, orgOf(request.org)) };
    },
    async getHours(request) {
      return { hours: toHoursMessage(await readHours(prisma, orgOf(request.org), now()), request.profile?.timeZone ?? 'UTC') };
    },
    async replaceHours(request) {
      const org = orgOf(request.org);
      const hours = await replaceHours(prisma, org, fromHoursMessage(request.hours), now());
      // A published feed carries the hours: it is signed again with these.
      await republishIfPublished(context.publish, org, request.profile);
      return { hours: toHoursMessage(hours, request.profile?.timeZone ?? 'UTC') };
    },
    async getSign(request) {
      return getSign(prisma, orgOf(request.org), request.profile, now());
    },
    async listFeeds(request) {
      return listFeeds(prisma, request);
    },
    async submitFeed(request) {
      if (request.publisher && request.feed)
        throw new AppError('validation_failed', 'Send org_handle (publish that organisation) or feed (carry a signed feed), not both.', {
          field: 'feed',
        });
      if (request.publisher) return { feed: await publishFeed(context.publish, orgOf(request.publisher), request.profile) };
      if (!request.feed)
        throw new AppError('validation_failed', 'Send org_handle to publish its feed, or feed to carry a signed one.', { field: 'feed' });
      return { feed: await carryFeed(context.carry, request.feed) };
    },
    async getFeed(request) {
      return getFeed(prisma, request.feedId);
    },
    async getFeedNostrEvents(request) {
      return getFeedNostrEvents(prisma, await context.publish.identity(), request.feedId);
    },
    async listPeers() {
      return listPeers(context.peers);
    },
    async exchangePeers(request) {
      return exchangePeers(context.peers, request);
    },
    async discoverNearby(request) {
      return discoverNearby(context.discovery, request);
    },
    async searchCatalog(request) {
      return searchCatalog(context.discovery, request);
    },
    async listFeatured(request) {
      return listFeatured(context.discovery, request);
    },
    async listCategories() {
      return listCategories(context.discovery);
    },
    async listCategoryMerchants(request) {
      return listCategoryMerchants(context.discovery, request);
    },
    async getMerchant(request) {
      return getMerchant(context.discovery, request);
    },
    async createPin(request) {
      return { pin: await createPin(context.pins, request) };
    },
    async listNearbyPins(request) {
      return { pins: await listNearbyPins(context.pins, request) };
    },
  };
}
