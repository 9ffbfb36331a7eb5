import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { createPlace, deletePlace, movePlace, renamePlace } from './api.ts';
import type { Place } from './api.ts';
import { bottles, placeLabel } from './format.ts';
import { usePlaces } from './useCellar.ts';
import './places.css';

type Editing = { id: number; action: 'rename' | 'move' | 'delete' } | null;

/** The places inside `id` (at any depth), and `id` itself: where it cannot be moved. */
function selfAndInside(places: Place[], id: number): Set<number> {
  const out = new Set([id]);
  // Each place comes after its parent, so one pass finds every descendant.
  for (const place of places) {
    if (place.parentId !== null && out.has(place.parentId)) out.add(place.id);
  }
  return out;
}

/** A select of where a place can be: the top, or any place not excluded. */
function ParentSelect({
  label,
  places,
  exclude,
  value,
  onChange,
}: {
  label: string;
  places: Place[];
  exclude?: Set<number>;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Top level</option>
        {places
          .filter((place) => !exclude?.has(place.id))
          .map((place) => (
            <option key={place.id} value={String(place.id)}>
              {placeLabel(place.path)}
            </option>
          ))}
      </select>
    </div>
  );
}

interface RowProps {
  place: Place;
  places: Place[];
  editing: Editing;
  setEditing: (editing: Editing) => void;
  run: (work: () => Promise<unknown>, done: string) => Promise<void>;
}

/** Rename, Move or Delete of one place, in place of its buttons. */
function PlaceEditor({ place, places, editing, setEditing, run }: RowProps) {
  const [name, setName] = useState(place.name);
  const [parent, setParent] = useState(place.parentId === null ? '' : String(place.parentId));
  const cancel = (
    <button type="button" className="button button--secondary" onClick={() => setEditing(null)}>
      Cancel
    </button>
  );
  if (editing?.action === 'rename') {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      void run(() => renamePlace(place.id, name), `Renamed to ${name.trim()}`);
    };
    return (
      <form className="place-editor" onSubmit={submit}>
        <Field
          label={`New name for ${place.name}`}
          value={name}
          maxLength={80}
          required
          onChange={(event) => setName(event.target.value)}
          autoFocus
        />
        <div className="place-editor__buttons">
          <button type="submit" className="button button--primary">
            Save name
          </button>
          {cancel}
        </div>
      </form>
    );
  }
  if (editing?.action === 'move') {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      const parentId = parent === '' ? null : Number(parent);
      void run(() => movePlace(place.id, parentId), `Moved ${place.name}`);
    };
    return (
      <form className="place-editor" onSubmit={submit}>
        <ParentSelect
          label={`Move ${place.name} into`}
          places={places}
          exclude={selfAndInside(places, place.id)}
          value={parent}
          onChange={setParent}
        />
        <div className="place-editor__buttons">
          <button type="submit" className="button button--primary">
            Move here
          </button>
          {cancel}
        </div>
      </form>
    );
  }
  const inside = places.some((p) => p.parentId === place.id);
  return (
    <div className="place-editor" role="group" aria-label={`Delete ${place.name}?`}>
      <p className="place-editor__question">
        Delete {place.name}
        {inside ? ' and the places inside it' : ''}?
      </p>
      <div className="place-editor__buttons">
        <button
          type="button"
          className="button button--danger"
          onClick={() => void run(() => deletePlace(place.id), `Deleted ${place.name}`)}
        >
          Delete
        </button>
        {cancel}
      </div>
    </div>
  );
}

function PlaceRow(props: RowProps & { inside: Place[] }) {
  const { place, places, editing, setEditing, inside } = props;
  const mine = editing?.id === place.id;
  const action = (what: 'rename' | 'move' | 'delete', text: string) => (
    <button
      type="button"
      className="button button--secondary place-row__action"
      onClick={() => setEditing({ id: place.id, action: what })}
    >
      {text}
      <span className="visually-hidden"> {place.name}</span>
    </button>
  );
  return (
    <li className="place-row">
      <div className="place-row__line">
        <span className="place-row__name">{place.name}</span>
        <span className="place-row__count">{bottles(place.totalBottleCount)}</span>
      </div>
      {mine ? (
        <PlaceEditor {...props} />
      ) : (
        <div className="place-row__actions">
          {action('rename', 'Rename')}
          {action('move', 'Move')}
          {action('delete', 'Delete')}
        </div>
      )}
      {inside.length > 0 && (
        <ul className="place-tree place-tree--inner">
          {inside.map((child) => (
            <PlaceRow
              {...props}
              key={child.id}
              place={child}
              inside={places.filter((p) => p.parentId === child.id)}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** 'Add a place': a name and where it is. */
function AddPlace({ places, run }: Pick<RowProps, 'places' | 'run'>) {
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parentId = parent === '' ? null : Number(parent);
    const added = name.trim();
    await run(async () => {
      await createPlace(name, parentId);
      setName('');
    }, `Added ${added}`);
  };
  return (
    <form className="place-add" onSubmit={(event) => void submit(event)} aria-label="Add a place">
      <h3 className="place-add__title">Add a place</h3>
      <Field
        label="Name"
        value={name}
        maxLength={80}
        required
        placeholder="Kitchen fridge"
        onChange={(event) => setName(event.target.value)}
      />
      {places.length > 0 && (
        <ParentSelect label="Inside" places={places} value={parent} onChange={setParent} />
      )}
      <button type="submit" className="button button--primary">
        Add place
      </button>
    </form>
  );
}

/** The user's places, nested: add, rename, move and delete them. */
export function PlacesDialog({ onClose }: { onClose: () => void }) {
  const query = usePlaces();
  const client = useQueryClient();
  const { notifySuccess } = useNotes();
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);
  const places = query.data ?? [];

  const run = async (work: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await work();
      setEditing(null);
      notifySuccess(done);
    } catch (failure) {
      setError(messageOf(failure, 'The place could not be changed.'));
    } finally {
      await client.invalidateQueries({ queryKey: queryKeys.cellar.all });
    }
  };

  const rowProps = { places, editing, setEditing, run };
  return (
    <Dialog
      title="Places"
      description="Where you keep your bottles: a room, a rack in it, a bin in the rack."
      onClose={onClose}
      footer={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Done
        </button>
      }
    >
      <div className="places">
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        {query.isPending ? (
          <p className="list-status" role="status">
            Loading…
          </p>
        ) : query.isError ? (
          <p role="alert" className="form-error">
            {query.error.message}
          </p>
        ) : places.length === 0 ? (
          <p className="empty-state">No places yet.</p>
        ) : (
          <ul className="place-tree" aria-label="Your places">
            {places
              .filter((place) => place.parentId === null)
              .map((place) => (
                <PlaceRow
                  {...rowProps}
                  key={place.id}
                  place={place}
                  inside={places.filter((p) => p.parentId === place.id)}
                />
              ))}
          </ul>
        )}
        <AddPlace places={places} run={run} />
      </div>
    </Dialog>
  );
}
