import * as build from './fake-remote-activities.ts';
import type { Json, NoteExtension, NoteInput } from './fake-remote-activities.ts';
import type { FakeAccount } from './fake-remote-documents.ts';

/**
 * The activity builders bound to a fake remote: by account name, with the notes and the
 * activities that have their own URL published (served at their id) so they dereference.
 */
export function bindActivities(remote: {
  account(name: string): FakeAccount;
  actorDocument(account: FakeAccount): Json;
  publish<T extends Json>(object: T): T;
  unpublish(id: string): void;
}) {
  const { account, publish } = remote;
  return {
    follow: (name: string, object: string) => publish(build.follow(account(name), object)),
    undo: (name: string, activity: Json) => build.undo(account(name), activity),
    accept: (name: string, received: Json) => build.accept(account(name), received),
    reject: (name: string, received: Json) => build.reject(account(name), received),
    deleteActor: (name: string) => build.deleteActor(account(name)),
    updatePerson: (name: string) =>
      build.updatePerson(account(name), remote.actorDocument(account(name))),
    createNote(name: string, input: NoteInput) {
      const made = build.createNote(account(name), input);
      return { note: publish(made.note), activity: publish(made.activity) };
    },
    /** The Update; the edited note (with `updated`) is what its id serves from now on. */
    updateNote(name: string, note: Json, extension?: NoteExtension) {
      const update = build.updateNote(account(name), note, extension);
      publish({ '@context': update['@context'], ...(update.object as Json) });
      return update;
    },
    deleteNote(name: string, note: Json) {
      remote.unpublish(String(note.id));
      return build.deleteNote(account(name), note);
    },
    like: (name: string, object: string) => build.like(account(name), object),
    announce: (name: string, object: string, author?: string) =>
      publish(build.announce(account(name), object, author)),
  };
}
