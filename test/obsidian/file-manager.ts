// Obsidian's FileManager: file operations "as the user would do them", following the app's
// default preferences (new notes in the vault root, system trash, [[wikilinks]]).
// Simplified: renameFile does not rewrite links in other notes (Obsidian's optional link update).
import type { TAbstractFile, TFile, TFolder } from './files';
import type { MetadataCache } from './metadata-cache';
import type { Vault } from './vault';

export class FileManager {
  constructor(
    private readonly vault: Vault,
    private readonly metadataCache: MetadataCache,
  ) {}

  /** The default "Default location for new notes" is the vault root. */
  getNewFileParent(sourcePath: string, newFilePath?: string): TFolder {
    void sourcePath;
    void newFilePath;
    return this.vault.getRoot();
  }

  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    await this.vault.rename(file, newPath);
  }

  /** The default "Deleted files" preference is the system trash (the vault's `.trash` if that fails). */
  async trashFile(file: TAbstractFile): Promise<void> {
    const adapter = this.vault.adapter;
    if (!(await adapter.trashSystem(file.path))) await adapter.trashLocal(file.path);
  }

  /** With the default "Use [[Wikilinks]]" preference: `[[name#subpath|alias]]`. */
  generateMarkdownLink(file: TFile, sourcePath: string, subpath = '', alias = ''): string {
    const linktext = this.metadataCache.fileToLinktext(file, sourcePath);
    return `[[${linktext}${subpath}${alias ? `|${alias}` : ''}]]`;
  }
}
