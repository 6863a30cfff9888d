import { adminPost, apiPath } from '../../lib/admin-api';
import type { Order } from '../../lib/api-types';

/** What `GET /orders/{id}` answers, and so every action on the order (decision 017). */
export interface OrderAnswer {
  order: Order;
}

/** Sends one of the order's actions (`['refund']`, `['mails', id, 'resend']`); answers the order as it is now. */
export async function orderAction(id: string, action: string[], body: unknown = {}): Promise<Order> {
  return (await adminPost<OrderAnswer>(apiPath('orders', id, ...action), body)).order;
}

/** What each of the order page's actions is given: the order, and where the order it answers goes. */
export interface OrderActionProps {
  order: Order;
  onUpdated: (order: Order) => void;
}
