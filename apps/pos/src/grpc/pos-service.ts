import { AppError, orgOf } from '@ctk/shared';
import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { analyzeItems } from '../analyze/analyze-items.js';
import type { OcrReader } from '../analyze/ocr-reader.js';
import type { ItemRepository } from '../data/item-repository.js';
import type { MenuRepository } from '../data/menu-repository.js';
import { createItem } from '../domain/create-item.js';
import { getMenu } from '../domain/get-menu.js';
import { getSetup } from '../domain/get-setup.js';
import { listItems } from '../domain/list-items.js';
import { replaceMenu } from '../domain/replace-menu.js';
import { toItemMessage } from './item-message.js';
import { toMenuMessage } from './menu-message.js';

export function posService({ items, menus, ocr }: { items: ItemRepository; menus: MenuRepository; ocr: OcrReader }): PosServiceImplementation {
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(items, orgOf(request.org)) };
    },
    async createItem(request) {
      return { item: toItemMessage(await createItem(items, orgOf(request.org), request)) };
    },
    async listItems(request) {
      const page = await listItems(items, orgOf(request.org), request);
      return { items: page.items.map(toItemMessage), nextCursor: page.nextCursor };
    },
    async getMenu(request) {
      return { menu: toMenuMessage(await getMenu(menus, orgOf(request.org))) };
    },
    async replaceMenu(request) {
      return { menu: toMenuMessage(await replaceMenu(menus, items, orgOf(request.org), request)) };
    },
    async analyzeItems(request, context) {
      return analyzeItems(ocr, request, context.signal);
    },
    createOrder: notBuilt('CreateOrder'),
    getOrder: notBuilt('GetOrder'),
    // eslint-disable-next-line require-yield
    async *watchOrder() {
      throw new AppError('not_implemented', 'PosService.WatchOrder is not built yet.');
    },
    getPaymentRequest: notBuilt('GetPaymentRequest'),
    payOrder: notBuilt('PayOrder'),
    confirmOrder: notBuilt('ConfirmOrder'),
    cancelOrder: notBuilt('CancelOrder'),
    getOrderQr: notBuilt('GetOrderQr'),
  };
}

/** An RPC of the contract whose implementation is still to land (the gateway answers its routes 501). */
function notBuilt(rpc: string): () => Promise<never> {
  return async () => {
    throw new AppError('not_implemented', `PosService.${rpc} is not built yet.`);
  };
}
