import { AskingModule, ItemStore } from '../fixtures/asking-fixtures';
import { type RunningApp, startApp } from './start-app';

/** The asking fixture app, started for the suite, its items reset before each test. */
export interface AskingApp {
  readonly running: RunningApp;
  readonly store: ItemStore;
}

/** Starts the asking fixture app for the calling `describe` (its hooks registered here). */
export function useAskingApp(): AskingApp {
  const app = {} as { running: RunningApp; store: ItemStore };
  beforeAll(async () => {
    app.running = await startApp(AskingModule);
    app.store = app.running.app.get(ItemStore);
  });
  beforeEach(() => app.store.reset());
  afterAll(() => app.running?.close());
  return app;
}
