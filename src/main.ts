// The Plugin subclass: wiring only. Logic lives in src/core (compaction) and src/chat (session).
import { Plugin } from 'obsidian';
import { type CompactChatSettings, DEFAULT_SETTINGS, mergeSettings } from './chat/settings';

export default class CompactChatPlugin extends Plugin {
  override settings: CompactChatSettings = { ...DEFAULT_SETTINGS };

  override async onload(): Promise<void> {
    await this.loadSettings();
  }

  override onunload(): void {
    // Everything is registered through this.register*/addChild, so Obsidian cleans it up.
  }

  async loadSettings(): Promise<void> {
    this.settings = mergeSettings(await this.loadData());
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
  }
}
