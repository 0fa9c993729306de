import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { JSONSchema } from '@nestops/operations';

/** The delivery slots of the order desk, with what a person reads for each. */
export const DELIVERY_SLOTS = [
  { const: 'morning', title: 'Morning (8:00 to 12:00)' },
  { const: 'afternoon', title: 'Afternoon (12:00 to 17:00)' },
  { const: 'evening', title: 'Evening (17:00 to 21:00)' },
] as const;

export type DeliverySlot = (typeof DELIVERY_SLOTS)[number]['const'];

const SLOT_VALUES = DELIVERY_SLOTS.map((slot) => slot.const);

/**
 * The form `orders.schedule-delivery` asks the user to fill in when its
 * input names no slot: one choice among titled slots, morning by default.
 */
export class DeliverySlotDto {
  @JSONSchema({
    title: 'Delivery slot',
    description: 'When the order should be delivered.',
    default: 'morning',
    oneOf: DELIVERY_SLOTS.map((slot) => ({ ...slot })),
  })
  @IsIn(SLOT_VALUES)
  slot: DeliverySlot;
}

/** Which order to deliver, and when; the user is asked when `slot` is left out. */
export class ScheduleDeliveryDto {
  @IsInt()
  @Min(1)
  id: number;

  @JSONSchema({
    description: 'morning, afternoon or evening; leave it out to ask the user.',
  })
  @IsOptional()
  @IsIn(SLOT_VALUES)
  slot?: DeliverySlot;
}

/** The slot an order is now scheduled for. */
export class ScheduledDeliveryDto {
  @IsInt()
  id: number;

  @IsIn(SLOT_VALUES)
  slot: DeliverySlot;
}
