import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SiteInputs } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { CURRENT_CHECKOUT_SCRIPT, EMBED_DIR } from '../pages/serve-checkout-script.js';

/** The Buy button's script a published site loads: the current version, pinned by its SRI hash (decision 0018). */
const SCRIPT_VERSION = CURRENT_CHECKOUT_SCRIPT;
let integrity: string | undefined;

/** checkout.js's `integrity`: sha384 of the file this gateway serves, read once. */
export function checkoutScriptIntegrity(): string {
  integrity ??= `sha384-${createHash('sha384')
    .update(readFileSync(`${EMBED_DIR}/${SCRIPT_VERSION}/checkout.js`))
    .digest('base64')}`;
  return integrity;
}

/**
 * What an organisation's site shows that only the gateway knows (decision 0035): its commerce public key
 * (empty while none is made) and the Buy button's script under this instance's public URL, with its hash.
 */
export async function siteInputs(deps: Pick<GatewayDeps, 'prisma' | 'config'>, organizationId: string): Promise<SiteInputs> {
  const org = await deps.prisma.organization.findUnique({ where: { id: organizationId }, select: { commercePublicKey: true } });
  if (!org) throw new AppError('not_found', 'No such organisation.');
  return {
    commercePublicKey: org.commercePublicKey ?? '',
    checkoutScriptUrl: `${deps.config.CTK_PUBLIC_URL}/checkout/${SCRIPT_VERSION}/checkout.js`,
    checkoutScriptIntegrity: checkoutScriptIntegrity(),
  };
}
