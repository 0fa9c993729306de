import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { type InvocationContext, Operation } from '@nestops/operations';
import { MoreThan } from 'typeorm';
import { CurrentTenant } from './current-tenant';
import {
  OrderReportDto,
  type ReportGrouping,
  ReportOrdersDto,
  type ReportRowDto,
} from './dto/order-report.dto';
import { Order } from './order.entity';

/** How many orders a report reads between two progress reports. */
const REPORT_PAGE = 200;

/**
 * Sales reports: the tenant's orders added up per day or per name, read a
 * page at a time. A long read, so a 2026-07-28 client runs it as a task.
 */
@Injectable()
export class OrderReportsService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly tenant: CurrentTenant,
  ) {}

  @Operation({
    id: 'orders.report',
    title: 'Sales report',
    description:
      "Adds up the orders of the caller's tenant per day they were created on (by: day, the default, UTC) or per name (by: name): for each row the number of orders and the sum of their amounts, plus the totals. It reads the orders 200 at a time and reports its progress; it runs as a task for a 2026-07-28 client, which must declare the tasks extension. Needs the orders.read permission.",
    permission: 'orders.read',
    readOnly: true,
    output: OrderReportDto,
    task: 'required',
  })
  async report(
    input: ReportOrdersDto,
    context: InvocationContext,
  ): Promise<OrderReportDto> {
    const by: ReportGrouping = input.by ?? 'day';
    const orders = this.txHost.tx.getRepository(Order);
    const tenantId = this.tenant.id;
    const total = await orders.countBy({ tenantId });
    const rows = new Map<string, ReportRowDto>();
    let read = 0;
    let after = 0;
    for (;;) {
      // Cancelled or past its deadline: stop here.
      context.signal.throwIfAborted();
      const page = await orders.find({
        where: { tenantId, id: MoreThan(after) },
        order: { id: 'ASC' },
        take: REPORT_PAGE,
      });
      for (const order of page) {
        const key =
          by === 'day'
            ? new Date(order.createdAt).toISOString().slice(0, 10)
            : order.name;
        const row = rows.get(key) ?? { key, orders: 0, amount: 0 };
        row.orders += 1;
        row.amount += order.amount;
        rows.set(key, row);
      }
      read += page.length;
      if (page.length < REPORT_PAGE) {
        break;
      }
      after = page[page.length - 1].id;
      context.reportProgress(read, total, `${read} of ${total} orders read`);
      // SQLite's driver is synchronous: a turn of the event loop lets the
      // progress out and a cancellation in.
      await new Promise((turn) => setImmediate(turn));
    }
    const sorted = [...rows.values()].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    return {
      by,
      orders: read,
      amount: sorted.reduce((sum, row) => sum + row.amount, 0),
      rows: sorted,
    };
  }
}
