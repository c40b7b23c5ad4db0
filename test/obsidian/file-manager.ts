// Obsidian's FileManager: file operations "as the user would do them", following the app's
// default preferences (new notes in the vault root, system trash, [[wikilinks]]).
// renameFile updates the links to the renamed note in every other note, as Obsidian does with its
// default "Automatically update internal links" preference: a [[wikilink]] keeps its #subpath and
// |alias, a markdown link gets the new path (spaces as %20).
import { TFile, type TAbstractFile, type TFolder } from './files';
import { parseLinktext } from './path';
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
    const oldPath = file.path;
    const incoming = file instanceof TFile ? this.linksTo(file) : [];
    await this.vault.rename(file, newPath);
    if (!(file instanceof TFile)) return;
    for (const [source, refs] of incoming) {
      // A note linking to itself moved with it.
      const sourceFile = source === oldPath ? file : this.vault.getFileByPath(source);
      if (!sourceFile) continue;
      // Last first, so the earlier offsets stay right.
      const sorted = [...refs].sort((a, b) => b.start - a.start);
      await this.vault.process(sourceFile, (text) => {
        let out = text;
        for (const ref of sorted) {
          if (out.slice(ref.start, ref.end) !== ref.original) continue;
          out = `${out.slice(0, ref.start)}${this.relinked(ref.original, file, sourceFile.path)}${out.slice(ref.end)}`;
        }
        return out;
      });
    }
  }

  /** Every link (and embed) in a markdown note that resolves to `file`, by source note. */
  private linksTo(file: TFile): [string, { start: number; end: number; original: string }[]][] {
    const out: [string, { start: number; end: number; original: string }[]][] = [];
    for (const source of this.vault.getMarkdownFiles()) {
      const cache = this.metadataCache.getFileCache(source);
      const refs = [...(cache?.links ?? []), ...(cache?.embeds ?? [])]
        .filter((ref) => {
          const { path } = parseLinktext(ref.link);
          return path !== '' && this.metadataCache.getFirstLinkpathDest(path, source.path) === file;
        })
        .map((ref) => ({ start: ref.position.start.offset, end: ref.position.end.offset, original: ref.original }));
      if (refs.length) out.push([source.path, refs]);
    }
    return out;
  }

  /** A link written again for the renamed file, keeping its subpath and alias. */
  private relinked(original: string, file: TFile, sourcePath: string): string {
    const wiki = /^(!?)\[\[([^\]|#]*)(#[^\]|]*)?(\|[^\]]*)?\]\]$/.exec(original);
    if (wiki) return `${wiki[1]}[[${this.metadataCache.fileToLinktext(file, sourcePath)}${wiki[3] ?? ''}${wiki[4] ?? ''}]]`;
    const md = /^(!?\[[^\]]*\]\()([^)#]*)(#[^)]*)?\)$/.exec(original);
    if (md) return `${md[1]}${file.path.replace(/ /g, '%20')}${md[3] ?? ''})`;
    return original;
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
