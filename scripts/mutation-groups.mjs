// The critical files of `npm run test:mutation`, in groups, each with the
// tests that exercise it. `MUTATION_GROUP=<name> npm run test:mutation` runs
// one group against only its tests: a mutant that survives them may still be
// killed by another test, so a group's score is a lower bound of the file's
// score against the whole suite (what a run with no group measures), at a
// fraction of the time.

/** @type {Record<string, { mutate: string[], tests: string[] }>} */
export const MUTATION_GROUPS = {
  // The HTTP transport and what bounds it
  http: {
    mutate: [
      'libs/mcp/src/transports/http/request-body.reader.ts',
      'libs/mcp/src/transports/http/origin.policy.ts',
      'libs/mcp/src/protocol/mcp-protocol.ts',
      'libs/mcp/src/protocol/mcp-session.ts',
      'libs/mcp/src/protocol/mcp-call.ts',
      'libs/mcp/src/protocol/call-cancel.ts',
      'libs/mcp/src/protocol/server-requests.ts',
      'libs/mcp/src/auth/outer-authenticator.ts',
      'libs/mcp/src/auth/permission-gate.ts',
      'libs/mcp/src/transports/http/request-headers.ts',
      'libs/mcp/src/lifecycle/connection-turn.ts',
      'libs/mcp/src/transports/http/http-json-rpc.ts',
      'libs/mcp/src/transports/http/http-response-stream.ts',
      'libs/mcp/src/protocol/mcp-message.ts',
      'libs/mcp/src/transports/http/mcp-http.transport.ts',
      'libs/mcp/src/transports/http/http-routes.ts',
      'libs/mcp/src/lifecycle/connection-drain.ts',
      'libs/mcp/src/lifecycle/server-lifecycle.ts',
    ],
    tests: [
      'libs/mcp/src/**/*.spec.ts',
      'test/http/mcp-http*.e2e-spec.ts',
      'test/protocol/mcp-2026.e2e-spec.ts',
      'test/http/hostile-input.e2e-spec.ts',
      'test/http/hot-path.e2e-spec.ts',
      'test/protocol/call-cancel.e2e-spec.ts',
      'test/protocol/call-progress.e2e-spec.ts',
      'test/pipeline/guard-check.e2e-spec.ts',
      'test/i18n/i18n.e2e-spec.ts',
      'test/http/response-stream.e2e-spec.ts',
      'test/oauth/oauth-resource.e2e-spec.ts',
      'test/oauth/oauth-step-up.e2e-spec.ts',
      'test/oauth/oauth-rules.e2e-spec.ts',
      'test/oauth/oauth-claims.e2e-spec.ts',
      'test/lifecycle/shutdown-drain.e2e-spec.ts',
      'test/lifecycle/mcp-server-lifecycle.e2e-spec.ts',
      'test/protocol/server-requests.e2e-spec.ts',
      'test/pipeline/startup.e2e-spec.ts',
    ],
  },
  // The stdio session of the command-line host
  stdio: {
    mutate: [
      'libs/mcp/src/transports/stdio/mcp-stdio.session.ts',
      'libs/mcp/src/transports/stdio/stdio-lines.ts',
      'libs/mcp/src/transports/stdio/stdio-output.ts',
      'libs/mcp/src/transports/stdio/stdio-start.ts',
    ],
    tests: ['libs/mcp/src/**/*.spec.ts'],
  },
  // Input, pipeline, authorization
  input: {
    mutate: [
      'libs/operations/src/invocation/input/input.sanitizer.ts',
      'libs/operations/src/invocation/pipeline/operation-pipeline.ts',
      'libs/operations/src/authorization/operation-authorization.guard.ts',
    ],
    tests: [
      'libs/operations/src/**/*.spec.ts',
      'test/pipeline/pipeline*.e2e-spec.ts',
      'test/http/hostile-input.e2e-spec.ts',
      'test/pipeline/guard-check.e2e-spec.ts',
      'test/http/mcp-http-limits.e2e-spec.ts',
      'test/sample/sample-rules.e2e-spec.ts',
      'test/sample/sample-bounds.e2e-spec.ts',
      'test/pipeline/nest-stack-*.e2e-spec.ts',
    ],
  },
  // The unit of work
  uow: {
    mutate: [
      'libs/typeorm/src/transaction.interceptor.ts',
      'libs/typeorm/src/call-queue.ts',
      'libs/typeorm/src/call-scoped.adapter.ts',
    ],
    tests: [
      'libs/typeorm/src/**/*.spec.ts',
      'test/unit-of-work/unit-of-work*.e2e-spec.ts',
      'test/sample/sample-unit-of-work.e2e-spec.ts',
    ],
  },
  // The sample's guards
  sample: {
    mutate: [
      'src/auth/api-key.guard.ts',
      'src/auth/tenant.guard.ts',
      'src/auth/tenant.ts',
    ],
    tests: [
      'test/sample/sample-*.e2e-spec.ts',
      'test/http/mcp-http.e2e-spec.ts',
    ],
  },
  // The OAuth resource server: the JWT verifier, its scopes and the issuer's metadata
  oauth: {
    mutate: [
      'libs/mcp/src/auth/mcp-jwt.guard.ts',
      'libs/mcp/src/auth/scopes.ts',
      'libs/mcp/src/auth/authorization-server.metadata.ts',
    ],
    tests: [
      'libs/mcp/src/auth/*.spec.ts',
      'test/oauth/oauth-claims.e2e-spec.ts',
      'test/oauth/oauth-rules.e2e-spec.ts',
      'test/oauth/oauth-resource.e2e-spec.ts',
      'test/oauth/oauth-step-up.e2e-spec.ts',
      'test/oauth/oauth-sample-tokens.e2e-spec.ts',
    ],
  },
};

/** The group `MUTATION_GROUP` names, or undefined for the whole set. */
export function mutationGroup(name = process.env.MUTATION_GROUP) {
  if (!name) {
    return undefined;
  }
  const group = MUTATION_GROUPS[name];
  if (!group) {
    throw new Error(
      `MUTATION_GROUP=${name} is not a group; the groups are ${Object.keys(MUTATION_GROUPS).join(', ')}`,
    );
  }
  return group;
}
