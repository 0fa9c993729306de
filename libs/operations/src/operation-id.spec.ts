import { parseOperationId } from './operation-id.js';

describe('parseOperationId', () => {
  it('splits <resource>.<verb>', () => {
    expect(parseOperationId('orders.create')).toEqual({
      resource: 'orders',
      verb: 'create',
    });
  });

  it('accepts dashes in the resource', () => {
    expect(parseOperationId('tenant-members.list')).toEqual({
      resource: 'tenant-members',
      verb: 'list',
    });
  });

  it('takes the verb after the last dot of a multi-dot id', () => {
    expect(parseOperationId('billing.invoices.send')).toEqual({
      resource: 'billing.invoices',
      verb: 'send',
    });
  });

  it('accepts digits after the first letter of a segment', () => {
    expect(parseOperationId('v2-orders.list2')).toEqual({
      resource: 'v2-orders',
      verb: 'list2',
    });
  });

  it.each([
    '',
    'orders',
    '.x',
    'x.',
    'a..b',
    'a b.c',
    'orders.create ',
    ' orders.create',
    'orders.cre ate',
    'orders/create',
    'orders.1create',
    'orders_x.create!',
    'orders.\ncreate',
    'orders.create\n',
  ])('rejects %j', (id) => {
    expect(parseOperationId(id)).toBeUndefined();
  });

  it.each([
    undefined,
    null,
    42,
    true,
    {},
    ['orders', 'create'],
    { toString: () => 'orders.create' },
    Symbol('orders.create'),
  ])('rejects the non-string %s', (id) => {
    expect(parseOperationId(id)).toBeUndefined();
  });
});
