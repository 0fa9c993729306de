import {
  createTaskResult,
  detailedTask,
  expired,
  type TaskRecord,
} from './task-record';

const record: TaskRecord = {
  id: 't1',
  owner: 'o',
  tool: 'notes_write',
  operationId: 'notes.write',
  input: {},
  caller: { headers: {}, capabilities: {} },
  status: 'working',
  createdAt: Date.UTC(2026, 11, 6, 7, 0, 0),
  lastUpdatedAt: Date.UTC(2026, 11, 6, 7, 0, 1),
  ttlMs: 60_000,
  answers: { yes: { action: 'accept' } },
};

describe('task wire', () => {
  it('answers tools/call with a flat task: ISO times, integer ms, no result or state', () => {
    expect(createTaskResult(record, 500)).toEqual({
      resultType: 'task',
      taskId: 't1',
      status: 'working',
      createdAt: '2026-12-06T07:00:00.000Z',
      lastUpdatedAt: '2026-12-06T07:00:01.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 500,
    });
  });

  it('inlines only what the status has: result, error or questions', () => {
    const result = { content: [{ type: 'text', text: '1' }] };
    const error = { code: -32603, message: 'x' };
    const inputRequests = { yes: { method: 'elicitation/create', params: {} } };
    const all = { ...record, result, error, inputRequests };

    expect(detailedTask({ ...all, status: 'completed' }, 1)).toMatchObject({
      resultType: 'complete',
      result,
    });
    expect(detailedTask({ ...all, status: 'completed' }, 1)).not.toHaveProperty(
      'error',
    );
    expect(detailedTask({ ...all, status: 'failed' }, 1)).toMatchObject({
      error,
    });
    expect(detailedTask({ ...all, status: 'failed' }, 1)).not.toHaveProperty(
      'result',
    );
    expect(detailedTask({ ...all, status: 'input_required' }, 1)).toMatchObject(
      { inputRequests },
    );
    expect(detailedTask({ ...all, status: 'cancelled' }, 1)).not.toHaveProperty(
      'inputRequests',
    );
    // The answers so far never leave the server.
    expect(JSON.stringify(detailedTask(all, 1))).not.toContain('accept');
  });

  it('expires a task once its time to live has passed, not before', () => {
    expect(expired(record, record.createdAt + 59_999)).toBe(false);
    expect(expired(record, record.createdAt + 60_000)).toBe(true);
  });
});
