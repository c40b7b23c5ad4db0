// Shape checks for decoded wire JSON, shared by every protocol decoder: servers send what they
// like, so every field is checked before use instead of trusted by a cast.

export type Json = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export const isRecord = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A usage count: a finite, non-negative number, else undefined. */
export const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
