// The `obsidian` module for tests (vitest aliases `obsidian` here) and for the browser harness:
// Obsidian's public API names, implemented in memory. See README.md for what is covered.
import { installDomHelpers } from './dom';

// Obsidian's DOM helpers (createEl, setText, …) are globals there; install them wherever a DOM exists.
if (typeof window !== 'undefined') installDomHelpers(window);

export { App } from './app';
export { Component } from './component';
export { Events, type EventRef } from './events';
export { Vault } from './vault';
export { TAbstractFile, TFile, TFolder } from './files';
export { FileManager } from './file-manager';
export { MetadataCache } from './metadata-cache';
export { getFrontMatterInfo } from './frontmatter';
export { normalizePath, parseLinktext, getLinkpath } from './path';
export { prepareFuzzySearch, prepareSimpleSearch, renderMatches, renderResults, sortSearchResults } from './search';
export { debounce, type Debouncer } from './debounce';
export { Platform } from './platform';
export { getIcon, setIcon, setTooltip } from './icons';
export { Keymap, Scope, type KeymapEventHandler, type KeymapEventListener, type KeymapContext, type KeymapInfo } from './keymap';
export { Editor } from './editor';
export { View, ItemView, type ViewStateResult } from './view';
export { FileView, EditableFileView, TextFileView, MarkdownView } from './file-view';
export { type ViewCreator } from './view-registry';
export {
  Workspace,
  WorkspaceItem,
  WorkspaceParent,
  WorkspaceSplit,
  WorkspaceRoot,
  WorkspaceSidedock,
  WorkspaceTabs,
  WorkspaceRibbon,
  WorkspaceLeaf,
  type ViewState,
  type OpenViewState,
  type PaneType,
  type SplitDirection,
} from './workspace';
export { type Command } from './commands';
export { Plugin } from './plugin';
export { SettingTab, PluginSettingTab } from './setting-tab';
export { Setting } from './setting';
export {
  BaseComponent,
  ValueComponent,
  AbstractTextComponent,
  TextComponent,
  TextAreaComponent,
  SearchComponent,
  ToggleComponent,
  DropdownComponent,
  SliderComponent,
  ButtonComponent,
  ExtraButtonComponent,
  SecretComponent,
} from './components';
export { SecretStorage } from './secret-storage';
export { Modal, SuggestModal, FuzzySuggestModal, type FuzzyMatch, type Instruction } from './modal';
export {
  PopoverSuggest,
  AbstractInputSuggest,
  EditorSuggest,
  type EditorSuggestContext,
  type EditorSuggestTriggerInfo,
} from './suggest';
export { Menu, MenuItem } from './menu';
export { Notice } from './notice';
export {
  MarkdownRenderer,
  MarkdownRenderChild,
  MarkdownPreviewRenderer,
  type MarkdownPostProcessor,
  type MarkdownPostProcessorContext,
} from './markdown';
export { requestUrl, request } from './request';

export { apiVersion, requireApiVersion } from './version';
export { getLanguage } from './language';

// Plain data shapes, shared with Obsidian's own declarations.
export type {
  CachedMetadata,
  DataWriteOptions,
  EditorChange,
  EditorPosition,
  EditorRange,
  EditorSelection,
  EditorTransaction,
  FileStats,
  FrontMatterCache,
  FrontMatterInfo,
  HeadingCache,
  Hotkey,
  LinkCache,
  ListedFiles,
  Modifier,
  PluginManifest,
  RequestUrlParam,
  RequestUrlResponse,
  RequestUrlResponsePromise,
  SearchMatches,
  SearchResult,
  Stat,
  TagCache,
  TooltipOptions,
} from 'obsidian';
