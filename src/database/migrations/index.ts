import { CreateOrders1764489600000 } from './1764489600000-create-orders';
import { AddDeliverySlot1765000000000 } from './1765000000000-add-delivery-slot';

/** Every migration of the sample, oldest first; run at startup. */
export const MIGRATIONS = [
  CreateOrders1764489600000,
  AddDeliverySlot1765000000000,
];
