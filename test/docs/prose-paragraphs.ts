import { readFileSync } from 'node:fs';

/** A paragraph of prose in a page, and its sentences. */
export interface Paragraph {
  /** The page line the paragraph starts on. */
  readonly line: number;
  readonly text: string;
  readonly sentences: readonly string[];
}

/** Abbreviations whose full stop ends no sentence. */
const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|cf|approx|no)\.(?=\s)/gi;

/**
 * The sentences of `text`: inline code, link targets and abbreviations are
 * set aside first, then a sentence ends at `.`, `!` or `?` before a space and
 * a capital, a digit, a quote, a backtick or an opening mark, or at the end.
 */
export function sentencesOf(text: string): string[] {
  const plain = text
    .replace(/`[^`]*`/g, 'CODE')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(ABBREVIATIONS, 'ABBR')
    // A bold lead-in (`**Tokens.**`, `**Context.**`) titles the sentence after it.
    .replace(/\*\*[^*]+\.\*\*/g, 'TITLE')
    .replace(/\s+/g, ' ')
    .trim();
  return plain
    .split(/(?<=[.!?][)"'*_]*)\s+(?=[A-Z0-9"'`(*_[])/)
    .filter((sentence) => sentence.trim() !== '');
}

/**
 * The prose paragraphs of a Markdown page: blocks of lines between blank
 * lines, and each list item, leaving out front matter, fenced code, tables,
 * headings, HTML and the lines of custom containers (`:::`).
 */
export function paragraphsOf(path: string): Paragraph[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const paragraphs: Paragraph[] = [];
  let block: { line: number; lines: string[] } | undefined;
  let fence: string | undefined;
  const close = () => {
    if (block) {
      // A decision record's labelled parts (**Context.**) count on their own.
      for (const text of block.lines
        .join(' ')
        .split(/(?=\*\*(?:Context|Decision|Consequence)\.\*\*)/)) {
        if (text.trim() !== '') {
          paragraphs.push({
            line: block.line,
            text,
            sentences: sentencesOf(text),
          });
        }
      }
    }
    block = undefined;
  };
  let start = 0;
  if (lines[0] === '---') {
    start = lines.indexOf('---', 1) + 1;
  }
  for (let index = start; index < lines.length; index++) {
    const line = lines[index];
    const trimmed = line.trim();
    const marker = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (fence) {
      if (marker && trimmed.startsWith(fence)) fence = undefined;
      continue;
    }
    if (marker) {
      close();
      fence = marker;
      continue;
    }
    if (trimmed === '' || /^:::/.test(trimmed)) {
      close();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)]) /.exec(trimmed);
    if (item) {
      // A list item is a paragraph of its own; its following lines carry it on.
      close();
      block = { line: index + 1, lines: [trimmed.slice(item[0].length)] };
      continue;
    }
    // A table row, a heading, HTML, a quote: not a paragraph of prose.
    if (/^(?:\||#|<|>)/.test(trimmed)) {
      close();
      while (index + 1 < lines.length && lines[index + 1].trim() !== '') {
        index++;
      }
      continue;
    }
    block ??= { line: index + 1, lines: [] };
    block.lines.push(trimmed);
  }
  close();
  return paragraphs;
}
