import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import BenchmarkChart from './BenchmarkChart.vue';
import MermaidDiagram from './MermaidDiagram.vue';

/**
 * The default theme, with the component ```mermaid blocks become and the
 * benchmark's chart (reference/benchmarks.md).
 */
export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('MermaidDiagram', MermaidDiagram);
    app.component('BenchmarkChart', BenchmarkChart);
  },
} satisfies Theme;
