import type { InboxContext } from '@fedify/fedify';
import type { Create } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { readVaultNoteFromActivity } from '../note-reader.ts';
import { INSTANCE_ACTOR } from '../paths.ts';
import { noteAddressing } from './addressing.ts';
import { conversationNote, logOutcome } from './conversation-common.ts';
import { fetchRemoteActor, guardedLoader } from './follow-common.ts';
import { sameOrigin } from './received-note.ts';

/**
 * Create(Note) of a fediverse post that mentions local users (a `Mention` tag naming their
 * actor or profile URL) and answers nothing here (reply.ts took those): each of them is told
 * (MENTION, its text as plain text, a link to its `url` or else its id) unless they and its
 * author blocked one another; nothing else of the post is kept. The inbox's door has already
 * refused a blocked server and applied the inbound limits (a post counts as an entry). The
 * Note must be embedded, the actor's own and on its origin; an entry of a followed vault (a
 * Note with the vault extension) is left to create-note.ts. The author's actor is fetched
 * (signed) when unknown, as the notification's sender.
 *
 * Returns whether the Create was such a mention, so that any other Create goes on.
 */
export async function onCreateMention(
  ctx: InboxContext<void>,
  create: Create,
  deps: FederationDeps,
): Promise<boolean> {
  const created = await conversationNote(create, deps);
  if (!created) return false;
  const { conversation, actor, note } = created;
  if (note.attributedTo !== actor.href || !sameOrigin(note.id, actor)) return false;
  const userIds = [...new Set((await noteAddressing(deps, note, actor)).mentionedUsers)];
  if (userIds.length === 0) return false;
  if (readVaultNoteFromActivity(await create.toJsonLd())) return false;
  const outcome = await conversation.receiveMention(
    actor.href,
    { url: note.url && sameOrigin(note.url, actor) ? note.url : note.id, text: note.text, userIds },
    async () => {
      const loader = await guardedLoader(ctx, ctx.recipient ?? INSTANCE_ACTOR, deps);
      return fetchRemoteActor(ctx, actor, loader);
    },
  );
  logOutcome(create, 'mention', outcome);
  return true;
}
