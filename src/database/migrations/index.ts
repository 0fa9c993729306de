import { CreateOrders1764489600000 } from './1764489600000-create-orders';

/** Every migration of the sample, oldest first; run at startup. */
export const MIGRATIONS = [CreateOrders1764489600000];
