// The conversation folder setting's checks, kept beside the settings tab that shows them.
import { type Vault, normalizePath } from 'obsidian';
import { inVaultCase } from './obsidian-vault';

/** Why Obsidian would refuse this folder path, or null. Obsidian refuses file and folder names that
 * end in a dot or a space (Windows cannot hold them, so vaults that sync there would break). */
export function folderNameProblem(folder: string): string | null {
  const bad = normalizePath(folder)
    .split('/')
    .find((segment) => /[. ]$/.test(segment));
  return bad === undefined ? null : `Folder names cannot end in a dot or a space ("${bad}").`;
}

/** Where the disk ignores case and a folder differing only in case exists, the sentence saying
 * conversations go there; otherwise ''. */
export function existingFolderNote(vault: Vault, folder: string): string {
  const wanted = normalizePath(folder);
  const existing = inVaultCase(vault, wanted);
  return existing === wanted ? '' : ` Saving to the existing folder "${existing}": this device's disk ignores case.`;
}
