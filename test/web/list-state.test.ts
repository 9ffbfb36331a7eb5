import { describe, expect, it } from 'vitest';
import { entry, ids, tried } from './entries.ts';
import { applyChange, matchesFilter, newestFirst } from '../../web/src/vault/list-state.ts';

describe('lists following changes', () => {
  it('matches entries by user, type, status and cellar', () => {
    const e = entry({ type: 'WINE', status: 'TO_TRY', inCellar: true, userId: 2 });
    expect(matchesFilter(e, {})).toBe(true);
    expect(matchesFilter(e, { type: 'WINE', status: 'TO_TRY', cellar: true, userId: 2 })).toBe(
      true,
    );
    expect(matchesFilter(e, { type: 'BEER' })).toBe(false);
    expect(matchesFilter(e, { status: 'TRIED' })).toBe(false);
    expect(matchesFilter(e, { cellar: false })).toBe(false);
    expect(matchesFilter(e, { userId: 1 })).toBe(false);
  });

  it("treats a list that names nobody as the viewer's own vault, shared entries included", () => {
    expect(matchesFilter(entry({ userId: 1 }), {}, 1)).toBe(true);
    expect(matchesFilter(entry({ userId: 2 }), {}, 1)).toBe(false);
    expect(matchesFilter(entry({ userId: 2, sharedWithCurrentUser: true }), {}, 1)).toBe(true);
    // An admin editing someone else's entry does not put it in the admin's own lists.
    const state = { entries: [], hasMore: false };
    const theirs = entry({ userId: 2, isOwner: false });
    expect(
      applyChange(state, { kind: 'saved', entry: theirs }, {}, { viewerId: 1 }).entries,
    ).toEqual([]);
    expect(applyChange(state, { kind: 'saved', entry: theirs }, { userId: 2 }).entries).toEqual([
      theirs,
    ]);
  });

  it('orders newest first, then by id for entries of the same moment', () => {
    const at = '2026-02-01T00:00:00.000Z';
    const list = [entry({ id: 100, createdAt: at }), entry({ id: 101, createdAt: at }), entry()];
    expect(ids([...list].sort(newestFirst))).toEqual([101, 100, list[2]!.id]);
  });

  it('puts a new entry at the top and replaces a changed one in place', () => {
    const [a, b] = [entry(), entry()];
    const state = { entries: [b!, a!], hasMore: false };
    const fresh = entry();
    const added = applyChange(state, { kind: 'saved', entry: fresh }, tried);
    expect(ids(added.entries)).toEqual([fresh.id, b!.id, a!.id]);

    const renamed = { ...a!, name: 'Renamed' };
    const replaced = applyChange(added, { kind: 'saved', entry: renamed }, tried);
    expect(replaced.entries.at(-1)?.name).toBe('Renamed');
    expect(replaced.entries).toHaveLength(3);
  });

  it('removes an entry that no longer matches (status or type changed) or was deleted', () => {
    const [a, b] = [entry(), entry()];
    const state = { entries: [b!, a!], hasMore: false };
    const moved = applyChange(state, { kind: 'saved', entry: { ...a!, status: 'TO_TRY' } }, tried);
    expect(ids(moved.entries)).toEqual([b!.id]);
    expect(moved.needsRefill).toBe(false);
    const deleted = applyChange(state, { kind: 'deleted', id: b!.id }, tried);
    expect(ids(deleted.entries)).toEqual([a!.id]);
  });

  it('inserts a moved entry at its place by age', () => {
    const [old, middle, young] = [entry(), entry(), entry()];
    const state = { entries: [young!, old!], hasMore: false };
    const result = applyChange(state, { kind: 'saved', entry: middle! }, tried);
    expect(ids(result.entries)).toEqual([young!.id, middle!.id, old!.id]);
  });

  it('leaves out an entry that belongs to a page not loaded yet', () => {
    const [older, a, b] = [entry(), entry(), entry()];
    const state = { entries: [b!, a!], hasMore: true };
    expect(applyChange(state, { kind: 'saved', entry: older! }, tried).entries).toEqual(
      state.entries,
    );
  });

  it('keeps a fixed list at its size and asks to refill it when it loses an entry', () => {
    const list = [entry(), entry(), entry(), entry()].reverse();
    const state = { entries: list, hasMore: false };
    const fresh = entry();
    const added = applyChange(state, { kind: 'saved', entry: fresh }, tried, { capacity: 4 });
    expect(ids(added.entries)).toEqual([fresh.id, ...ids(list.slice(0, 3))]);
    expect(added.hasMore).toBe(true);

    const removed = applyChange(added, { kind: 'deleted', id: fresh.id }, tried, { capacity: 4 });
    expect(removed.needsRefill).toBe(true);
  });

  it('ignores changes to entries it does not show', () => {
    const state = { entries: [entry()], hasMore: true };
    const other = entry({ type: 'BEER' });
    const result = applyChange(state, { kind: 'saved', entry: other }, tried);
    expect(result.entries).toBe(state.entries);
    expect(result.needsRefill).toBe(false);
    expect(applyChange(state, { kind: 'deleted', id: 9999 }, tried).needsRefill).toBe(false);
  });
});
