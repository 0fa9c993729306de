npx @modelcontextprotocol/inspector --transport http \
  --server-url http://127.0.0.1:3000/mcp \
  --header "Authorization: ApiKey dev-alice-key"
