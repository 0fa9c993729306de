// This library over HTTP (POST /mcp): the app of nestops-app.cjs, listening.
const { bootNest } = require('./nest-common.cjs');
const { LibraryModule, generatedMs, operations } = require('./nestops-app.cjs');

void bootNest(LibraryModule, { extra: { operations, generatedMs } });
