import {
  type DefaultTheme,
  defineConfig,
  type MarkdownOptions,
} from 'vitepress';

type MarkdownIt = Parameters<NonNullable<MarkdownOptions['config']>>[0];

// The sidebar: a new page is listed here (see docs/CONVENTIONS.md).
const sidebar = [
  {
    text: 'Get started',
    items: [
      { text: 'Installation', link: '/get-started/installation' },
      { text: 'Quick start', link: '/get-started/quick-start' },
      { text: 'Connect a client', link: '/get-started/connect-a-client' },
      {
        text: 'Your first operation and its schema',
        link: '/get-started/first-operation-schema',
      },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Operations and DTOs', link: '/guides/operations-and-dtos' },
      {
        text: 'Descriptions and languages',
        link: '/guides/descriptions-and-languages',
      },
      {
        text: 'Auth and permissions',
        link: '/guides/auth-and-permissions',
      },
      { text: 'OAuth', link: '/guides/oauth' },
      { text: 'Stdio and the CLI', link: '/guides/stdio-and-cli' },
      { text: 'Long calls', link: '/guides/long-calls' },
      { text: 'Asking the user', link: '/guides/asking-the-user' },
      { text: 'Tasks', link: '/guides/tasks' },
      { text: 'Resources', link: '/guides/resources' },
      {
        text: 'Prompts and completions',
        link: '/guides/prompts-and-completions',
      },
      { text: 'Rich tool results', link: '/guides/rich-results' },
      { text: 'Custom headers', link: '/guides/custom-headers' },
      { text: 'Transactions', link: '/guides/transactions' },
      {
        text: 'Telemetry and audit',
        link: '/guides/telemetry-and-audit',
      },
      { text: 'Testing', link: '/guides/testing' },
      { text: 'Fastify', link: '/guides/fastify' },
      { text: 'Several instances', link: '/guides/several-instances' },
    ],
  },
  {
    text: 'Recipes',
    items: [
      { text: 'Passport JWT', link: '/recipes/passport-jwt' },
      { text: '@nestjs/jwt', link: '/recipes/nestjs-jwt' },
      { text: 'CASL', link: '/recipes/casl' },
      { text: 'Throttler', link: '/recipes/throttler' },
      { text: 'nestjs-cls', link: '/recipes/nestjs-cls' },
      { text: 'nestjs-i18n', link: '/recipes/nestjs-i18n' },
      { text: 'PostgreSQL', link: '/recipes/postgresql' },
      {
        text: 'Identity providers',
        link: '/recipes/identity-providers',
      },
    ],
  },
  {
    text: 'Reference',
    items: [
      {
        text: 'McpModule options',
        link: '/reference/mcp-module-options',
      },
      {
        text: 'Operation options',
        link: '/reference/operation-options',
      },
      { text: 'Errors', link: '/reference/errors' },
      { text: 'CLI', link: '/reference/cli' },
      { text: 'Compatibility', link: '/reference/compatibility' },
      { text: 'Benchmarks', link: '/reference/benchmarks' },
      { text: 'API', link: '/reference/api' },
    ],
  },
  { text: 'Protocol revisions', link: '/protocol-revisions' },
  { text: 'Design notes', link: '/design/' },
] satisfies DefaultTheme.SidebarItem[];

/**
 * A ```mermaid block becomes the theme's MermaidDiagram component, which
 * draws it in the browser (theme/MermaidDiagram.vue).
 */
function mermaidBlocks(md: MarkdownIt): void {
  const fence = md.renderer.rules.fence!;
  let count = 0;
  md.renderer.rules.fence = (tokens, index, options, env, self) => {
    const token = tokens[index];
    if (token.info.trim() !== 'mermaid') {
      return fence(tokens, index, options, env, self);
    }
    const code = encodeURIComponent(token.content);
    return `<MermaidDiagram id="mermaid-${++count}" code="${code}" />`;
  };
}

const NAV = ['Get started', 'Guides', 'Recipes', 'Reference'];

export default defineConfig({
  title: 'nestops',
  description:
    "Publish a NestJS application's @Operation methods as MCP tools, through its own guards, validation and rights.",
  cleanUrls: true,
  // CONVENTIONS.md is for writers; node_modules and README.md files are not pages.
  srcExclude: ['CONVENTIONS.md', '**/README.md', '**/node_modules/**'],
  markdown: { config: (md) => mermaidBlocks(md) },
  // Mermaid's diagram chunks, loaded only on a page with a diagram.
  vite: { build: { chunkSizeWarningLimit: 1600 } },
  themeConfig: {
    search: { provider: 'local' },
    sidebar,
    // The top bar: the first page of each of the NAV sections.
    nav: sidebar.flatMap(({ text, items }) => {
      const link = items?.[0]?.link;
      return NAV.includes(text) && link ? [{ text, link }] : [];
    }),
  },
});
