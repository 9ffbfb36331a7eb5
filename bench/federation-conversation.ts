// Cheers and comments in the federation benchmark (bench/federation.ts): `reader` cheers and
// comments on entries of `quiet` (no followers) and of `author` (1,000 remote followers on the
// 50 fake hosts), each request timed alone; then how soon the comment on the author's entry
// reaches every follower, and in how many POSTs.
//
// Where they go (federation/comment-jobs.ts): a comment on a local entry whose owner has remote
// followers becomes one Create(Note) per follower server, naming that server's followers in `cc`
// and sent once to its shared inbox, with the id
// `{origin}/users/{commenter}/comments/{commentId}/activity` (federation/conversation-delivery.ts).
// A follower is reached when a POST to their own inbox, or to their server's shared inbox naming
// them, arrived. A cheer on a local entry is sent nowhere: a Like goes to the entry's author, who
// is local.
import { performance } from 'node:perf_hooks';
import { FOLLOWERS_PER_HOST, HOSTS, printStats, until, type Arrival } from './federation-hosts.ts';
import type { Client } from './http.ts';
import type { Verdict } from './verdict.ts';

const ROUNDS = 10;
const FOLLOWERS = HOSTS * FOLLOWERS_PER_HOST;
const DELIVERY_TIMEOUT_MS = 60_000;
/** A comment reaches every one of the 1,000 followers within this (issue 29). */
const DELIVERY_TARGET_MS = 10_000;

interface ConversationOptions {
  origin: string;
  arrivals: Arrival[];
  /** Signed in as the user who cheers and comments (federated, no followers of their own). */
  reader: Client;
  readerName: string;
  /** Entries of `quiet` and of `author`, each already delivered; the first of each warms up. */
  quietEntries: number[];
  authorEntries: number[];
}

async function cheer(client: Client, entryId: number): Promise<void> {
  const res = await client.send('POST', `/api/beverages/${entryId}/cheer`);
  if (res.status !== 200) throw new Error(`POST …/cheer: ${res.status} ${res.body.toString()}`);
  const counts = JSON.parse(res.body.toString()) as { cheeredByMe: boolean };
  if (!counts.cheeredByMe) throw new Error('the cheer was not counted');
}

async function comment(client: Client, entryId: number, content: string): Promise<number> {
  const body = { type: 'application/json', data: Buffer.from(JSON.stringify({ content })) };
  const res = await client.send('POST', `/api/beverages/${entryId}/comments`, body);
  if (res.status !== 201) throw new Error(`POST …/comments: ${res.status} ${res.body.toString()}`);
  return (JSON.parse(res.body.toString()) as { comment: { id: number } }).comment.id;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchConversation(options: ConversationOptions): Promise<Verdict[]> {
  const { origin, arrivals, reader, readerName } = options;
  const createOf = (commentId: number) =>
    `${origin}/users/${encodeURIComponent(readerName)}/comments/${commentId}/activity`;
  const likePrefix = `${origin}/users/${encodeURIComponent(readerName)}/likes/`;
  const arrivalsOf = (activityId: string) => arrivals.filter((a) => a.activityId === activityId);
  const followersReached = (activityId: string) =>
    new Set(arrivalsOf(activityId).flatMap((a) => a.reached)).size;

  // Warm-up: the reader's keys are made and the conversation delivery loaded by the first one.
  await cheer(reader, options.quietEntries[0]!);
  await comment(reader, options.quietEntries[0]!, 'Warm-up');
  await cheer(reader, options.authorEntries[0]!);
  const warm = await comment(reader, options.authorEntries[0]!, 'Warm-up');
  await until(
    'warm-up comment',
    () => followersReached(createOf(warm)) >= FOLLOWERS,
    DELIVERY_TIMEOUT_MS,
  );

  const rounds = Math.min(
    ROUNDS,
    options.quietEntries.length - 1,
    options.authorEntries.length - 1,
  );
  console.log(
    `\nCheers and comments: ${rounds} rounds on an entry without followers and one with ${FOLLOWERS.toLocaleString('en')}`,
  );
  const samples = {
    quietCheer: [],
    quietComment: [],
    authorCheer: [],
    authorComment: [],
  } as Record<'quietCheer' | 'quietComment' | 'authorCheer' | 'authorComment', number[]>;
  const timed = async <T>(into: number[], fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await fn();
    into.push(performance.now() - t);
    return result;
  };
  const deliveryMs: number[] = [];
  let maxPosts = 0;
  let minReached = Infinity;
  let minHosts = Infinity;
  let delivered = true;
  for (let round = 1; round <= rounds; round++) {
    const quietEntry = options.quietEntries[round]!;
    const authorEntry = options.authorEntries[round]!;
    await timed(samples.quietCheer, () => cheer(reader, quietEntry));
    await pause(50);
    await timed(samples.quietComment, () => comment(reader, quietEntry, `Quiet round ${round}`));
    await pause(100);
    await timed(samples.authorCheer, () => cheer(reader, authorEntry));
    await pause(50);
    const t = performance.now();
    const id = await comment(reader, authorEntry, `Popular round ${round}`);
    const answered = performance.now();
    samples.authorComment.push(answered - t);
    const all = await until(
      `comment ${round} to every follower`,
      () => followersReached(createOf(id)) >= FOLLOWERS,
      DELIVERY_TIMEOUT_MS,
    );
    delivered &&= all;
    await pause(300); // a late duplicate would count
    const got = arrivalsOf(createOf(id));
    if (all) deliveryMs.push(Math.max(...got.map((a) => a.at)) - answered);
    maxPosts = Math.max(maxPosts, got.length);
    minReached = Math.min(minReached, followersReached(createOf(id)));
    minHosts = Math.min(minHosts, new Set(got.map((a) => a.host)).size);
    if (!all) break; // the next comment would not be timed alone, nor delivered any sooner
  }
  const likesSent = arrivals.filter((a) => a.activityId.startsWith(likePrefix)).length;

  const quietCheer = printStats('POST …/cheer, entry without followers', samples.quietCheer);
  const authorCheer = printStats(
    'POST …/cheer, entry with 1,000 remote followers',
    samples.authorCheer,
  );
  const quietComment = printStats('POST …/comments, entry without followers', samples.quietComment);
  const authorComment = printStats(
    'POST …/comments, entry with 1,000 remote followers',
    samples.authorComment,
  );
  const delivery =
    deliveryMs.length > 0
      ? printStats('comment: answer to the last of 1,000 followers reached', deliveryMs)
      : undefined;
  console.log(
    `comment: at most ${maxPosts} POSTs for one comment; at least ${minReached} followers on ${minHosts} hosts reached by each`,
  );
  console.log(
    `cheer: ${likesSent} Likes reached the fake hosts (a Like on a local entry goes to its author, who is local)`,
  );

  const more = (a: { p50: number; max: number }, b: { p50: number; max: number }) =>
    `${(a.p50 - b.p50).toFixed(2)} ms more (max ${(a.max - b.max).toFixed(2)})`;
  return [
    {
      target: 'cheer, 1,000 remote followers: < 5 ms more (p50)',
      figure: more(authorCheer, quietCheer),
      met: authorCheer.p50 - quietCheer.p50 < 5,
    },
    {
      target: 'cheer on a local entry: sent nowhere',
      figure: `${likesSent} Likes sent`,
      met: likesSent === 0,
    },
    {
      target: 'comment, 1,000 remote followers: < 5 ms more (p50)',
      figure: more(authorComment, quietComment),
      met: authorComment.p50 - quietComment.p50 < 5,
    },
    {
      target: 'comment: 1,000 followers reached, <= 50 POSTs',
      figure: `${maxPosts} POSTs at most, ${minReached} followers at least`,
      met: delivered && maxPosts <= HOSTS && minReached >= FOLLOWERS,
    },
    {
      target: 'comment: every follower within 10 s',
      figure:
        delivered && delivery
          ? `p50 ${(delivery.p50 / 1000).toFixed(2)} s, max ${(delivery.max / 1000).toFixed(2)} s`
          : `not within ${DELIVERY_TIMEOUT_MS / 1000} s (${deliveryMs.length} of ${rounds} were)`,
      met: delivered && delivery !== undefined && delivery.max <= DELIVERY_TARGET_MS,
    },
  ];
}
