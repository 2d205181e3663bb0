import { grpcHealthStatus } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newItem, newOrg, startTestPos } from './support.js';

describe('pos setup and health', () => {
  let pos: Awaited<ReturnType<typeof startTestPos>>;
  beforeAll(async () => {
    pos = await startTestPos();
  });
  afterAll(() => pos.close());

  it('reports every capability pos owns as not set up for a new organisation, with a next step', async () => {
    const org = newOrg();
    const { capabilities } = await pos.client.getSetup({ org });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['pos', 'pay_links', 'loyalty', 'prepaid_cards']);
    expect(capabilities.every((c) => !c.setUp && c.nextStep.length > 0)).toBe(true);
    expect(capabilities[0]?.nextStep).toBe(`Add your first item with POST /api/v1/orgs/${org.handle}/items`);
  });

  it('reports pos as set up once the organisation has its first item, and only for that organisation', async () => {
    const org = newOrg();
    await pos.client.createItem(newItem(org));
    const { capabilities } = await pos.client.getSetup({ org });
    expect(capabilities.find((c) => c.capabilityId === 'pos')).toEqual({ capabilityId: 'pos', setUp: true, nextStep: '' });
    const other = await pos.client.getSetup({ org: newOrg() });
    expect(other.capabilities.find((c) => c.capabilityId === 'pos')?.setUp).toBe(false);
  });

  it('reports pay links as set up once the organisation has made one', async () => {
    const org = newOrg();
    await pos.client.createPayLink({
      org,
      currency: 'USD',
      amountMinor: 1250n,
      memo: 'Invoice 1042',
      publicUrl: 'https://pay.example.com',
    });
    const { capabilities } = await pos.client.getSetup({ org });
    expect(capabilities.find((c) => c.capabilityId === 'pay_links')).toEqual({ capabilityId: 'pay_links', setUp: true, nextStep: '' });
    const other = await pos.client.getSetup({ org: newOrg() });
    expect(other.capabilities.find((c) => c.capabilityId === 'pay_links')?.nextStep).toMatch(/^Make a link anyone can pay with POST /);
  });

  it('reports loyalty as set up while the organisation has an active program', async () => {
    const org = newOrg();
    const loyalty = async () => (await pos.client.getSetup({ org })).capabilities.find((c) => c.capabilityId === 'loyalty');
    expect((await loyalty())?.nextStep).toBe(`Start a stamp card with PUT /api/v1/orgs/${org.handle}/loyalty-program`);
    const program = {
      stampRule: 'visit',
      amountPerStampMinor: 0n,
      stampsForReward: 8,
      reward: 'A free coffee',
      active: true,
      version: 0n,
      updatedAt: '',
    };
    await pos.client.replaceLoyaltyProgram({ org, program });
    expect(await loyalty()).toEqual({ capabilityId: 'loyalty', setUp: true, nextStep: '' });
    await pos.client.replaceLoyaltyProgram({ org, program: { ...program, active: false } });
    expect((await loyalty())?.setUp).toBe(false);
  });

  it('rejects a call that names no organisation as a bad request', async () => {
    await expect(pos.client.getSetup({})).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('answers SERVING on grpc.health.v1, for the server and for PosService', async () => {
    const address = `127.0.0.1:${pos.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.pos.v1.PosService')).toBe('SERVING');
  });
});
