import { describe, expect, it } from 'vitest';
import type { Comment } from '../../web/src/api/conversation.ts';
import {
  shownCount,
  withComment,
  withDeleted,
  withPosted,
} from '../../web/src/conversation/thread-cache.ts';
import {
  authorName,
  DELETED_COMMENT,
  THREAD_LEVELS,
  threadRows,
} from '../../web/src/conversation/thread-layout.ts';

/** A comment by `who` (a username), answering `parentId`. */
function comment(id: number, who: string, parentId: number | null = null): Comment {
  return {
    id,
    author: {
      fullName: `${who[0]!.toUpperCase()}${who.slice(1)}`,
      username: who,
      handle: null,
      avatarUrl: null,
    },
    content: `${who} says ${id}`,
    createdAt: `2026-11-29T10:00:${String(id).padStart(2, '0')}.000Z`,
    canDelete: false,
    parentId,
    audience: 'PUBLIC',
    deleted: false,
    mentions: [],
    cheerCount: 0,
    cheeredByMe: false,
  };
}

const deleted = (of: Comment): Comment => ({
  ...of,
  deleted: true,
  content: '',
  author: { fullName: '', username: null, handle: null, avatarUrl: null },
});

/** The rows as [id, level, inReplyTo, beyondLevels]. */
const layout = (comments: Comment[]) =>
  threadRows(comments).map((row) => [row.comment.id, row.level, row.inReplyTo, row.beyondLevels]);

describe('the layout of a thread', () => {
  it('puts every answer right under its parent, after the parent’s earlier answers', () => {
    // Oldest first, as the server lists them: a later comment on the entry came between.
    const comments = [
      comment(1, 'ash'),
      comment(2, 'beech'),
      comment(3, 'larch', 1),
      comment(4, 'ash', 3),
      comment(5, 'beech', 1),
    ];
    expect(layout(comments)).toEqual([
      [1, 0, null, false],
      [3, 1, 'Ash', false],
      [4, 2, 'Larch', false],
      [5, 1, 'Ash', false],
      [2, 0, null, false],
    ]);
  });

  it(`indents ${THREAD_LEVELS} levels; deeper answers stay at the last and say whom they answer`, () => {
    expect(THREAD_LEVELS).toBe(3);
    const comments = [
      comment(1, 'ash'),
      comment(2, 'beech', 1),
      comment(3, 'larch', 2),
      comment(4, 'ash', 3),
      comment(5, 'beech', 4),
    ];
    expect(layout(comments)).toEqual([
      [1, 0, null, false],
      [2, 1, 'Ash', false],
      [3, 2, 'Beech', false],
      [4, 2, 'Larch', true],
      [5, 2, 'Ash', true],
    ]);
  });

  it('keeps the answers of a deleted comment under it, answering “a deleted comment”', () => {
    const comments = [deleted(comment(1, 'ash')), comment(2, 'beech', 1)];
    expect(layout(comments)).toEqual([
      [1, 0, null, false],
      [2, 1, 'a deleted comment', false],
    ]);
    expect(authorName(comments[0]!)).toBe(DELETED_COMMENT);
  });

  it('shows an answer whose parent the viewer cannot read as a comment on the entry', () => {
    expect(layout([comment(2, 'beech', 1), comment(3, 'larch', 2)])).toEqual([
      [2, 0, null, false],
      [3, 1, 'Beech', false],
    ]);
  });

  it('shows every comment once, even parents in a cycle, and a deep thread without recursion', () => {
    expect(layout([comment(1, 'ash', 2), comment(2, 'beech', 1), comment(3, 'larch')])).toEqual([
      [3, 0, null, false],
      [1, 0, null, false],
      [2, 0, null, false],
    ]);
    const deep = Array.from({ length: 20_000 }, (_, index) =>
      comment(index + 1, 'ash', index === 0 ? null : index),
    );
    const rows = threadRows(deep);
    expect(rows).toHaveLength(20_000);
    expect(rows.at(-1)).toMatchObject({ level: THREAD_LEVELS - 1, beyondLevels: true });
  });

  it('names an author by full name, then username, then handle', () => {
    const base = comment(1, 'ash');
    expect(authorName(base)).toBe('Ash');
    expect(authorName({ ...base, author: { ...base.author, fullName: '' } })).toBe('ash');
    expect(
      authorName({
        ...base,
        author: { fullName: '', username: null, handle: '@ann@example.social', avatarUrl: null },
      }),
    ).toBe('@ann@example.social');
  });
});

describe('the cached thread', () => {
  it('adds a posted comment last, once', () => {
    const list = [comment(1, 'ash')];
    expect(withPosted(list, comment(2, 'beech', 1)).map((c) => c.id)).toEqual([1, 2]);
    expect(
      withPosted([...list, comment(2, 'beech')], comment(2, 'beech')).map((c) => c.id),
    ).toEqual([1, 2]);
    expect(withPosted(undefined, comment(2, 'beech')).map((c) => c.id)).toEqual([2]);
  });

  it('changes one comment’s cheers, and leaves a list without it as it is', () => {
    const list = [comment(1, 'ash'), comment(2, 'beech')];
    const changed = withComment(list, 2, () => ({ cheerCount: 1, cheeredByMe: true }));
    expect(changed?.map((c) => [c.id, c.cheerCount, c.cheeredByMe])).toEqual([
      [1, 0, false],
      [2, 1, true],
    ]);
    expect(withComment(list, 9, () => ({ cheerCount: 5 }))).toBe(list);
  });

  it('keeps a deleted comment with answers as “a deleted comment”, and drops one without', () => {
    const list = [comment(1, 'ash'), comment(2, 'beech', 1), comment(3, 'larch')];
    const kept = withDeleted(list, 1)!;
    expect(kept.map((c) => [c.id, c.deleted, c.content, c.author.username])).toEqual([
      [1, true, '', null],
      [2, false, 'beech says 2', 'beech'],
      [3, false, 'larch says 3', 'larch'],
    ]);
    expect(shownCount(kept)).toBe(2);
    // Its last answer gone, the deleted comment goes too.
    expect(withDeleted(kept, 2)!.map((c) => c.id)).toEqual([3]);
    expect(withDeleted(list, 3)!.map((c) => c.id)).toEqual([1, 2]);
  });
});
