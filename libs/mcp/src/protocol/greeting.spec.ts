import { describe, expect, it } from 'vitest';
import { earlyGreeting } from '../cli/cli-greeting.js';
import {
  capabilitiesOf,
  discoverResult,
  initializeResult,
} from './greeting.js';

const settings = { serverName: 'desk', serverVersion: '1.0.0' };

describe('greeting capabilities', () => {
  it('declares tools and logging only, when the app has nothing else', () => {
    expect(capabilitiesOf()).toEqual({
      tools: { listChanged: false },
      logging: {},
    });
    expect(initializeResult(settings, '2025-11-25').capabilities).toEqual(
      capabilitiesOf(),
    );
  });

  it('declares tasks as 2026-07-28 extension in discovery only, never in initialize', () => {
    const withTasks = { ...settings, features: ['tasks'] as const };
    expect(initializeResult(withTasks, '2025-11-25').capabilities).toEqual(
      capabilitiesOf(),
    );
    expect(
      (discoverResult(withTasks) as { capabilities: object }).capabilities,
    ).toEqual({
      ...capabilitiesOf(),
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(earlyGreeting({ features: ['tasks'] }).features).toEqual(['tasks']);
  });

  it('declares each feature the app has, in one order whatever the order given', () => {
    const declared = capabilitiesOf(['completions', 'resources']);
    expect(JSON.stringify(declared)).toBe(
      JSON.stringify({
        tools: { listChanged: false },
        logging: {},
        resources: { listChanged: false },
        completions: {},
      }),
    );
    expect(
      (
        discoverResult({ ...settings, features: ['prompts'] }) as {
          capabilities: object;
        }
      ).capabilities,
    ).toEqual({
      tools: { listChanged: false },
      logging: {},
      prompts: { listChanged: false },
    });
  });

  it("takes runCli's server features into the early greeting, in the app's order", () => {
    const early = earlyGreeting({
      serverName: 'desk',
      serverVersion: '1.0.0',
      features: ['prompts', 'resources'],
    });
    expect(early.features).toEqual(['resources', 'prompts']);
    expect(earlyGreeting(settings).features).toBeUndefined();
  });
});
