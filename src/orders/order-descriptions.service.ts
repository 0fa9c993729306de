import { Injectable } from '@nestjs/common';
import {
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import { OrderDescriptionDto } from './dto/order-description.dto';
import { OrderIdDto } from './dto/order-id.dto';
import { OrdersService } from './orders.service';

/** Product descriptions, drafted by the client's own model (MCP sampling). */
@Injectable()
export class OrderDescriptionsService {
  constructor(private readonly orders: OrdersService) {}

  @Operation({
    id: 'orders.describe',
    title: 'Describe an order',
    description:
      "Drafts a short description of the product of one order of the caller's tenant with the client's own model (MCP sampling), in the caller's language. Returns the order's id and name, the description and the model that wrote it. Fails with BUSINESS_CLIENT_001 when the client cannot sample, and with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.read permission.",
    permission: 'orders.read',
    readOnly: true,
    output: OrderDescriptionDto,
    // No `requires: ['sampling']`: a client that cannot sample gets the same
    // BUSINESS_CLIENT_001 result on every carrier and protocol revision.
  })
  async describe(
    input: OrderIdDto,
    context: InvocationContext,
  ): Promise<OrderDescriptionDto> {
    const order = await this.orders.get(input);
    const drafted = await context.sample(
      {
        systemPrompt: `You write product descriptions for delivery notes: one or two sentences, in the language ${context.locale}, nothing else.`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Describe the product ${JSON.stringify(order.name)}.`,
            },
          },
        ],
        maxTokens: 200,
      },
      { key: 'description' },
    );
    const { text } = drafted.content as { text?: unknown };
    if (drafted.content.type !== 'text' || typeof text !== 'string') {
      throw new OperationException('BUSINESS_CLIENT_002', {
        question: 'description',
        detail: `a ${drafted.content.type} message, not text`,
      });
    }
    return {
      id: order.id,
      name: order.name,
      description: text,
      model: drafted.model,
    };
  }
}
