// This library over stdio: the app of nestops-app.cjs under `runCli`, so
// `node nestops-stdio.cjs mcp --authorization 'ApiKey bench-key'` serves MCP
// on stdin/stdout, one JSON-RPC message per line.
const { runCli } = require('@nestops/mcp/cli');
const { LibraryModule } = require('./nestops-app.cjs');

void runCli(LibraryModule, { name: 'bench-stdio' });
