import { Test } from '@nestjs/testing';
import { OperationTestClient } from '@nestops/operations/testing';
import { AskingModule, ItemStore } from '../fixtures/asking-fixtures';

/** The testing kit answers a call's questions as the test says. */
describe('OperationTestClient answers', () => {
  let client: OperationTestClient;
  let store: ItemStore;
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AskingModule],
    }).compile();
    await moduleRef.init();
    client = OperationTestClient.create(moduleRef);
    store = moduleRef.get(ItemStore);
  });
  beforeEach(() => store.reset());

  it('runs a confirmed operation once the test accepts', async () => {
    const result = await client.invoke(
      'items.delete',
      { id: 1 },
      {
        answers: { confirm: { action: 'accept' } },
      },
    );
    expect(result).toMatchObject({ ok: true, value: { deleted: 1 } });
    expect(store.rows.has(1)).toBe(false);
  });

  it('fails it on decline, and without answers as a client that cannot be asked', async () => {
    const declined = await client.invoke(
      'items.delete',
      { id: 1 },
      {
        answers: { confirm: { action: 'decline' } },
      },
    );
    const unasked = await client.invoke('items.delete', { id: 1 });
    expect(
      [declined, unasked].map((each) => !each.ok && each.failure.code),
    ).toEqual(['BUSINESS_DECLINED_001', 'SECURITY_CONFIRMATION_001']);
    expect(store.rows.get(1)).toBe('item 1');
  });

  it('answers with a function of the question', async () => {
    const result = await client.invoke(
      'items.schedule',
      { id: 2 },
      {
        answers: ({ method, params }) =>
          method === 'elicitation/create' &&
          params.message === 'When should item 2 come?'
            ? { action: 'accept', content: { slot: 'morning' } }
            : { action: 'cancel' },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      value: { id: 2, slot: 'morning', action: 'accept' },
    });
  });
});
