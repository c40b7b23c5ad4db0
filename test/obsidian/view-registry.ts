// Which view type is built by which factory. Plugins add types with registerView; the workspace
// listens so that leaves of a type whose plugin unloads are closed (and restored if it comes back).
import { Events } from './events';
import type { View } from './view';
import type { WorkspaceLeaf } from './workspace';

export type ViewCreator = (leaf: WorkspaceLeaf) => View;

export class ViewRegistry extends Events {
  private readonly creators = new Map<string, ViewCreator>();

  registerView(type: string, creator: ViewCreator): void {
    if (this.creators.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
    this.creators.set(type, creator);
    this.trigger('view-registered', type);
  }

  unregisterView(type: string): void {
    if (this.creators.delete(type)) this.trigger('view-unregistered', type);
  }

  getViewCreatorByType(type: string): ViewCreator | undefined {
    return this.creators.get(type);
  }
}
