npx @modelcontextprotocol/inspector --cli http://127.0.0.1:3000/mcp \
  --transport http --header "Authorization: ApiKey dev-alice-key" \
  --method tools/list
