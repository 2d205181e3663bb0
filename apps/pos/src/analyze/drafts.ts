import type { ItemDraft } from '@ctk/proto/ctk/pos/v1/pos';

/** Drafts one analysis answers at most; the lines after the last are reported as not read. */
export const MAX_DRAFTS = 500;
/** Lines reported as skipped at most (the contract's bound); the rest are counted in the last entry. */
export const MAX_SKIPPED = 50;
// The item limits of create-item.ts: a draft that fits them can be created as it stands.
export const MAX_NAME = 200;
export const MAX_DESCRIPTION = 2000;
export const MAX_CATEGORY = 60;

/** Text from the input in a message, in quotes and cut short: an answer never echoes a whole long cell. */
export function quoted(text: string, max = 80): string {
  return `"${text.length > max ? `${text.slice(0, max)}...` : text}"`;
}

/** Collects drafts and skipped lines within their bounds, in the order they were read. */
export class DraftList {
  readonly drafts: ItemDraft[] = [];
  private readonly skippedLines: string[] = [];
  private readonly overflow: string[] = [];
  private overflowCount = 0;

  get full(): boolean {
    return this.drafts.length >= MAX_DRAFTS;
  }

  /** Adds a draft, or skips it when its name or texts cannot be an item. */
  add(where: string, draft: ItemDraft): void {
    const name = draft.name.trim();
    if (!/\p{L}/u.test(name)) return this.skip(where, `no item name (${quoted(name)})`);
    if (name.length > MAX_NAME) return this.skip(where, `the name is longer than ${MAX_NAME} characters`);
    const notes = [...draft.notes];
    let { description, category } = draft;
    if (description.length > MAX_DESCRIPTION) {
      description = description.slice(0, MAX_DESCRIPTION);
      notes.push(`description cut to ${MAX_DESCRIPTION} characters`);
    }
    if (category.length > MAX_CATEGORY) {
      category = '';
      notes.push(`category left empty: "${draft.category.slice(0, 40)}..." is longer than ${MAX_CATEGORY} characters`);
    }
    this.drafts.push({ ...draft, name, description, category, notes });
  }

  skip(where: string, why: string): void {
    const entry = `${where}: ${why}`;
    if (this.skippedLines.length < MAX_SKIPPED - 1) this.skippedLines.push(entry);
    else if (this.overflow.length < 2) this.overflow.push(entry);
    else this.overflowCount++;
  }

  /** What was skipped: at most {@link MAX_SKIPPED} entries, the last counting those beyond the bound. */
  get skipped(): string[] {
    if (this.overflow.length <= 1) return [...this.skippedLines, ...this.overflow];
    return [...this.skippedLines, `and ${this.overflow.length + this.overflowCount} more lines skipped`];
  }
}
