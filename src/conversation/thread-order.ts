/** What the thread's order needs of a comment. */
export interface ThreadNode {
  id: number;
  parentId: number | null;
  deleted: boolean;
}

/**
 * An entry's comments in thread order as one viewer reads them (docs/social.md, "Threads").
 * `all` holds every comment under the entry, oldest first (created_at, then id), each with
 * whether the viewer may read it. Every answer comes right after its parent and its parent's
 * earlier answers (depth first, siblings oldest first), so an answer stamped with the same
 * second as its parent still comes after it. A comment whose parent the viewer cannot read
 * hangs under its nearest ancestor they can read (its `parentId` rewritten), or at the top. A
 * deleted comment (a tombstone) is kept only while something the viewer reads hangs under it.
 */
export function threadOrder<T extends ThreadNode>(
  all: readonly (T & { readable: boolean })[],
): T[] {
  const byId = new Map(all.map((node) => [node.id, node]));

  /** The nearest ancestor the viewer reads, or null for the top. */
  function shownParent(node: ThreadNode): number | null {
    const seen = new Set<number>([node.id]);
    let parentId = node.parentId;
    while (parentId !== null && !seen.has(parentId)) {
      const parent = byId.get(parentId);
      if (!parent) return null;
      if (parent.readable) return parent.id;
      seen.add(parentId);
      parentId = parent.parentId;
    }
    return null;
  }

  const children = new Map<number | null, T[]>();
  for (const node of all) {
    if (!node.readable) continue;
    const parentId = shownParent(node);
    const { readable: _readable, ...comment } = node;
    const siblings = children.get(parentId) ?? [];
    siblings.push({ ...(comment as unknown as T), parentId });
    children.set(parentId, siblings);
  }

  const ordered: T[] = [];
  /** Appends the node and its answers; whether anything was appended. */
  function visit(node: T): boolean {
    const at = ordered.length;
    ordered.push(node);
    let answered = false;
    for (const child of children.get(node.id) ?? []) answered = visit(child) || answered;
    if (node.deleted && !answered) ordered.length = at;
    return ordered.length > at;
  }
  for (const top of children.get(null) ?? []) visit(top);
  return ordered;
}
