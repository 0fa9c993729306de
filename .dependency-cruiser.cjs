// The import rules of the library packages (`npm run check:cycles`, in CI):
// no import cycle, type-only imports included, and the protocol layer
// imports no transport.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: files that depend on each other cannot be understood, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-imports-no-transport',
      severity: 'error',
      comment:
        'The protocol layer serves every transport and knows none of them.',
      from: { path: '^libs/mcp/src/protocol/' },
      to: { path: '^libs/mcp/src/transports/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$|\\.spec-support\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
  },
};
