// Obsidian's SecretStorage (`app.secretStorage`): named secrets kept by the app, outside every
// plugin's data.json. Here they live in memory only, so a test can prove a key reaches the
// provider without ever being written to the vault.
import { Events } from './events';

/** Lowercase letters and digits, in dash-separated groups (`openai-key`, `key2`). */
const SECRET_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();

  /** @throws Error when the ID is not lowercase alphanumeric with optional dashes. */
  setSecret(id: string, secret: string): void {
    if (!SECRET_ID.test(id)) {
      throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes.`);
    }
    this.secrets.set(id, secret);
  }

  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}
