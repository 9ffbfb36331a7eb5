import { describe, expect, it } from 'vitest';
import type { Beverage } from '../../web/src/api/types.ts';
import {
  NAME_REQUIRED,
  createFormData,
  draftOf,
  entryReducer,
  newDraft,
  updateFormData,
  validateDraft,
} from '../../web/src/vault/entry-form.ts';
import type { EntryAction, EntryDraft } from '../../web/src/vault/entry-form.ts';

const run = (draft: EntryDraft, ...actions: EntryAction[]) => actions.reduce(entryReducer, draft);

const entry: Beverage = {
  id: 7,
  userId: 1,
  type: 'WINE',
  name: 'Château Musar',
  subtype: 'Merlot',
  makerName: 'Musar',
  rating: 4,
  notes: 'Spice and cherry.',
  status: 'TRIED',
  inCellar: true,
  photoPath: null,
  visibility: 'MEMBERS',
  federated: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  isOwner: true,
  ownerName: 'Ada',
  sharedWithCurrentUser: false,
  sharedWith: [],
  cheerCount: 0,
  cheeredByMe: false,
  commentCount: 0,
  drinkFrom: null,
  drinkUntil: null,
  tastingCount: 0,
};

const fields = (form: FormData) => Object.fromEntries(form.entries());

describe('the entry form state', () => {
  it('starts as WHISKEY, TRIED, rating 3, not in cellar, with the first whiskey subtype', () => {
    expect(newDraft()).toEqual({
      type: 'WHISKEY',
      name: '',
      subtype: 'Bourbon',
      makerName: '',
      rating: 3,
      status: 'TRIED',
      inCellar: false,
      notes: '',
      drinkFrom: '',
      drinkUntil: '',
    });
  });

  it('resets name, subtype and maker when the type changes, and keeps the rest', () => {
    const filled = run(
      newDraft(),
      { kind: 'text', field: 'name', value: 'Rittenhouse' },
      { kind: 'text', field: 'subtype', value: 'Rye' },
      { kind: 'text', field: 'makerName', value: 'Heaven Hill' },
      { kind: 'text', field: 'notes', value: 'Spicy.' },
      { kind: 'rating', rating: 5 },
      { kind: 'cellar', inCellar: true },
    );
    expect(run(filled, { kind: 'type', type: 'WINE' })).toEqual({
      ...filled,
      type: 'WINE',
      name: '',
      subtype: 'Cabernet Sauvignon',
      makerName: '',
    });
    expect(run(filled, { kind: 'type', type: 'BEER' }).subtype).toBe('Lager');
  });

  it('changes nothing when the same type is chosen again', () => {
    const filled = run(newDraft(), { kind: 'text', field: 'name', value: 'Blanton’s' });
    expect(run(filled, { kind: 'type', type: 'WHISKEY' })).toBe(filled);
  });

  it('forces rating 0 for TO_TRY and refuses rating changes while to-try', () => {
    const toTry = run(
      newDraft(),
      { kind: 'rating', rating: 5 },
      { kind: 'status', status: 'TO_TRY' },
    );
    expect(toTry.rating).toBe(0);
    expect(run(toTry, { kind: 'rating', rating: 4 }).rating).toBe(0);
  });

  it('restores rating 3 when going back to TRIED from 0', () => {
    const back = run(
      newDraft(),
      { kind: 'rating', rating: 5 },
      { kind: 'status', status: 'TO_TRY' },
      { kind: 'status', status: 'TRIED' },
    );
    expect(back).toMatchObject({ status: 'TRIED', rating: 3 });
  });

  it('keeps a tried rating when TRIED is chosen again', () => {
    const rated = run(
      newDraft(),
      { kind: 'rating', rating: 1 },
      { kind: 'status', status: 'TRIED' },
    );
    expect(rated.rating).toBe(1);
  });

  it('keeps ratings whole and between 0 and 5', () => {
    expect(run(newDraft(), { kind: 'rating', rating: 9 }).rating).toBe(5);
    expect(run(newDraft(), { kind: 'rating', rating: -2 }).rating).toBe(0);
    expect(run(newDraft(), { kind: 'rating', rating: 2.6 }).rating).toBe(3);
    expect(run(newDraft(), { kind: 'rating', rating: Number.NaN }).rating).toBe(0);
  });

  it('resets after a save but keeps the type and the cellar choice', () => {
    const filled = run(
      newDraft(),
      { kind: 'type', type: 'BEER' },
      { kind: 'text', field: 'name', value: 'Pliny the Elder' },
      { kind: 'text', field: 'subtype', value: 'IPA' },
      { kind: 'text', field: 'makerName', value: 'Russian River' },
      { kind: 'text', field: 'notes', value: 'Piney.' },
      { kind: 'status', status: 'TO_TRY' },
      { kind: 'cellar', inCellar: true },
    );
    expect(run(filled, { kind: 'saved' })).toEqual({
      ...newDraft('BEER'),
      inCellar: true,
    });
  });

  it('loads an entry for editing, with rating 0 while to-try', () => {
    expect(draftOf(entry)).toEqual({
      type: 'WINE',
      name: 'Château Musar',
      subtype: 'Merlot',
      makerName: 'Musar',
      rating: 4,
      status: 'TRIED',
      inCellar: true,
      notes: 'Spice and cherry.',
      drinkFrom: '',
      drinkUntil: '',
    });
    expect(draftOf({ ...entry, drinkFrom: 2026, drinkUntil: 2032 })).toMatchObject({
      drinkFrom: '2026',
      drinkUntil: '2032',
    });
    expect(draftOf({ ...entry, status: 'TO_TRY', rating: 2 }).rating).toBe(0);
    expect(draftOf({ ...entry, subtype: 'Retsina' }).subtype).toBe('Cabernet Sauvignon');
  });
});

describe('the entry form rules for sending', () => {
  it("says 'Name is required' for an empty or blank name", () => {
    expect(validateDraft(newDraft())).toBe(NAME_REQUIRED);
    expect(validateDraft({ ...newDraft(), name: '   ' })).toBe('Name is required');
    expect(validateDraft({ ...newDraft(), name: ' Weller ' })).toBeNull();
  });

  it('creates with a trimmed name and sends maker and notes only when non-empty', () => {
    const draft = { ...newDraft(), name: '  Weller 12 ', makerName: '  ', notes: '' };
    expect(fields(createFormData(draft))).toEqual({
      name: 'Weller 12',
      type: 'WHISKEY',
      subtype: 'Bourbon',
      rating: '3',
      status: 'TRIED',
      inCellar: 'false',
    });
    const full = { ...draft, makerName: ' Buffalo Trace ', notes: ' Wheated. ', inCellar: true };
    expect(fields(createFormData(full))).toMatchObject({
      makerName: 'Buffalo Trace',
      notes: 'Wheated.',
      inCellar: 'true',
    });
  });

  it('creates with the drinking window only when given, and a change sends it (empty clears)', () => {
    const draft = { ...newDraft(), name: 'Musar', drinkFrom: ' 2026 ', drinkUntil: '' };
    const created = fields(createFormData(draft));
    expect(created.drinkFrom).toBe('2026');
    expect('drinkUntil' in created).toBe(false);
    const changed = fields(updateFormData({ ...draft, drinkFrom: '', drinkUntil: '2032' }));
    expect([changed.drinkFrom, changed.drinkUntil]).toEqual(['', '2032']);
  });

  it('keeps the drinking window when the type changes, and starts afresh after a save', () => {
    const draft = { ...newDraft(), name: 'Musar', drinkFrom: '2026', drinkUntil: '2032' };
    expect(run(draft, { kind: 'type', type: 'WINE' }).drinkFrom).toBe('2026');
    expect(run(draft, { kind: 'saved' })).toMatchObject({ drinkFrom: '', drinkUntil: '' });
  });

  it('sends rating 0 for a to-try entry and the photo when there is one', () => {
    const photo = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    const form = createFormData({ ...newDraft(), name: 'x', status: 'TO_TRY', rating: 4 }, photo);
    expect(form.get('rating')).toBe('0');
    expect(form.get('photo')).toBeInstanceOf(Blob);
  });

  it('updates with every field, an emptied maker and notes included, and photo changes', () => {
    const draft = { ...draftOf(entry), makerName: '', notes: '' };
    expect(fields(updateFormData(draft))).toEqual({
      name: 'Château Musar',
      type: 'WINE',
      subtype: 'Merlot',
      rating: '4',
      status: 'TRIED',
      inCellar: 'true',
      makerName: '',
      notes: '',
      drinkFrom: '',
      drinkUntil: '',
    });
    expect(updateFormData(draft, { remove: true }).get('removePhoto')).toBe('true');
    const photo = new Blob([new Uint8Array([1])], { type: 'image/png' });
    const replaced = updateFormData(draft, { replace: photo, remove: true });
    expect(replaced.get('photo')).toBeInstanceOf(Blob);
    expect(replaced.has('removePhoto')).toBe(false);
  });
});
