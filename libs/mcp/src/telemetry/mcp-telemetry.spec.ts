import { Logger } from '@nestjs/common';
import type { McpAuditEvent } from '../interfaces/mcp-telemetry-options.interface.js';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import type { McpResourceCatalogue } from '../resources/mcp-resource.catalogue.js';
import type { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import type { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import { McpTelemetry } from './mcp-telemetry.js';

/** A sink's failure is the operator's to read in the log, never the caller's. */

const EVENT: McpAuditEvent = {
  time: '2026-12-02T00:00:00.000Z',
  principalId: null,
  tenant: null,
  tool: 'notes_add',
  operationId: 'notes.add',
  outcome: 'ok',
  durationMs: 1,
  correlationId: 'corr-9',
  transport: 'stdio',
  protocolVersion: null,
};

function telemetryWith(record: () => void | Promise<void>): McpTelemetry {
  return new McpTelemetry(
    resolveMcpOptions({ telemetry: { audit: { record } } }),
    {} as McpToolCatalogue,
    {} as McpPromptCatalogue,
    {} as McpResourceCatalogue,
  );
}

describe('McpTelemetry.audit', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('logs a sink that throws, naming the correlation id, and does not throw', () => {
    const logged = vi
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    expect(() =>
      telemetryWith(() => {
        throw new Error('table is gone');
      }).audit(EVENT),
    ).not.toThrow();
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining('corr-9'),
      expect.stringContaining('table is gone'),
    );
  });

  it('logs a sink that rejects', async () => {
    const logged = vi
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    telemetryWith(() => Promise.reject(new Error('queue is full'))).audit(
      EVENT,
    );
    await new Promise((settled) => setImmediate(settled));
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining('corr-9'),
      expect.stringContaining('queue is full'),
    );
  });
});
