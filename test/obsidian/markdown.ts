// MarkdownRenderer.render and the post-processor registry. A render adds a MarkdownRenderChild to
// the given component and registers on it whatever the output needs (the code blocks' copy
// buttons, children added by post-processors), so unloading that component releases it all.
// As in Obsidian, rendered internal links carry `data-href` but do not navigate by themselves:
// a view that wants clickable links handles the click (e.g. with workspace.openLinkText).
import type { App } from './app';
import { Component } from './component';
import type { TFile } from './files';
import { renderMarkdownBlocks } from './markdown-dom';
import { markdownHtmlMode, renderRawHtml } from './markdown-html';

export class MarkdownRenderChild extends Component {
  containerEl: HTMLElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.containerEl = containerEl;
  }
}

export interface MarkdownPostProcessorContext {
  docId: string;
  sourcePath: string;
  frontmatter: unknown;
  addChild(child: MarkdownRenderChild): void;
  getSectionInfo(el: HTMLElement): null;
}

export interface MarkdownPostProcessor {
  (el: HTMLElement, ctx: MarkdownPostProcessorContext): Promise<unknown> | void;
  sortOrder?: number;
}

const postProcessors: MarkdownPostProcessor[] = [];
let docCounter = 0;

export class MarkdownPreviewRenderer {
  /** Lower sortOrder runs first (default 0). */
  static registerPostProcessor(postProcessor: MarkdownPostProcessor, sortOrder?: number): void {
    if (sortOrder !== undefined) postProcessor.sortOrder = sortOrder;
    postProcessors.push(postProcessor);
    postProcessors.sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0));
  }

  static unregisterPostProcessor(postProcessor: MarkdownPostProcessor): void {
    const index = postProcessors.indexOf(postProcessor);
    if (index !== -1) postProcessors.splice(index, 1);
  }

  /** Replaces each ```language block with a `div.block-language-<language>` the handler fills. */
  static createCodeBlockPostProcessor(
    language: string,
    handler: (source: string, el: HTMLElement, ctx: MarkdownPostProcessorContext) => Promise<unknown> | void,
  ): (el: HTMLElement, ctx: MarkdownPostProcessorContext) => void {
    return (el, ctx) => {
      for (const code of el.findAll('pre > code')) {
        const pre = code.parentElement;
        if (!pre || !code.hasClass(`language-${language}`)) continue;
        const container = createDiv(`block-language-${language}`);
        pre.replaceWith(container);
        void handler(code.getText(), container, ctx);
      }
    };
  }
}

async function renderInto(app: App | null, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
  const child = component.addChild(new MarkdownRenderChild(el));
  const fragment = createFragment();
  renderMarkdownBlocks(fragment, markdown, {
    isUnresolved: (linkpath) => (app ? app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath) === null : false),
  });
  for (const button of fragment.findAll('button.copy-code-button')) {
    const code = button.parentElement?.find('code')?.getText() ?? '';
    child.registerDomEvent(button, 'click', () => void navigator.clipboard?.writeText(code));
  }
  // Obsidian renders sanitised raw HTML (see markdown-html.ts); the default mode shows it as text.
  if (markdownHtmlMode() === 'obsidian') renderRawHtml(fragment);
  el.appendChild(fragment);
  const ctx: MarkdownPostProcessorContext = {
    docId: `doc-${++docCounter}`,
    sourcePath,
    frontmatter: null,
    addChild: (renderChild) => child.addChild(renderChild),
    getSectionInfo: () => null,
  };
  for (const postProcessor of [...postProcessors]) await postProcessor(el, ctx);
}

export abstract class MarkdownRenderer extends MarkdownRenderChild {
  app: App;
  hoverPopover: null = null;

  constructor(app: App, containerEl: HTMLElement) {
    super(containerEl);
    this.app = app;
  }

  abstract get file(): TFile;

  /** Appends the rendered Markdown to `el`; links resolve against `sourcePath`. */
  static async render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    await renderInto(app, markdown, el, sourcePath, component);
  }

  /** The pre-1.x form, without an app: links are not checked for being unresolved. */
  static async renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    await renderInto(null, markdown, el, sourcePath, component);
  }
}
