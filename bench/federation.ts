// Federation under load (issue 10), against the real server process on loopback:
//  - fan-out: one entry of an author with 1,000 remote followers on 50 hosts (fake inboxes on
//    loopback ports, each with a shared inbox): POSTs per entry, time until every host has it,
//    and the author's own request against an author without followers;
//  - inbox throughput: signed Create(Note) deliveries (draft-cavage, verified by the vault) from
//    a remote actor a local user follows, until each is stored as a remote entry;
//  - incoming activities while one follower server never answers: 6 deliveries to it hang, and
//    signed Create(Note)s arrive one at a time: the time from each 202 until it is stored;
//  - cheers and comments on an entry with 1,000 remote followers against one without: what they
//    add to the request, and how soon every follower has the comment (federation-conversation.ts).
// BENCH_ONLY=federation runs it alone.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createActorRepository } from '../src/actors/repository.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { openDatabase } from '../src/db/client.ts';
import { createUserRepository } from '../src/users/repository.ts';
import {
  benchInbox,
  benchSilentFollower,
  INBOX_CONCURRENCY,
  INBOX_DELIVERIES,
  startSilentServer,
} from './federation-inbox.ts';
import { benchConversation } from './federation-conversation.ts';
import { FOLLOWERS_PER_HOST, HOSTS, printStats, startHosts, until } from './federation-hosts.ts';
import { multipart, signIn, type Client } from './http.ts';
import { freePort, startEnvironment } from './processes.ts';
import { printVerdicts, type Verdict } from './verdict.ts';

const PASSWORD = 'federation bench password';
const FAN_OUT_ROUNDS = 15;

/**
 * The data directory: author (1,000 remote followers), quiet (none), reader (follows poster),
 * neighbour (one follower, on the silent server).
 */
async function seed(dataDir: string, origins: string[], silentOrigin: string) {
  const { database, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  try {
    const users = createUserRepository(database);
    const actors = createActorRepository(database);
    const passwordHash = await hashPassword(PASSWORD);
    const ids: Record<string, number> = {};
    for (const username of ['author', 'quiet', 'reader', 'neighbour']) {
      const row = await users.insert({
        username,
        fullName: username,
        email: `${username}@example.com`,
        role: 'USER',
        passwordHash,
      });
      await users.update(row.id, { activityPubEnabled: true });
      ids[username] = await actors.localActorId(row.id);
    }
    const now = Date.now();
    const insertActor = database
      .prepare(
        `INSERT INTO actors (kind, uri, inbox_url, shared_inbox_url, display_name, handle, summary,
         created_at, updated_at, fetched_at) VALUES ('remote', ?, ?, ?, ?, ?, '', ?, ?, ?)
         RETURNING id`,
      )
      .pluck<number>();
    const insertFollow = database.prepare(
      `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
       VALUES (?, ?, 'ACCEPTED', ?, ?)`,
    );
    await database.transaction(async () => {
      for (const [h, origin] of origins.entries()) {
        for (let u = 0; u < FOLLOWERS_PER_HOST; u++) {
          const uri = `${origin}/users/f${u}`;
          const host = new URL(origin).host;
          const id = (await insertActor.get(
            uri,
            `${uri}/inbox`,
            `${origin}/inbox`,
            `f${u}`,
            `@f${u}@${host}`,
            now,
            now,
            now,
          ))!;
          await insertFollow.run(id, ids.author, `${uri}#follow-${h}`, now);
        }
      }
      const poster = `${origins[0]}/users/poster`;
      const posterId = (await insertActor.get(
        poster,
        `${poster}/inbox`,
        `${origins[0]}/inbox`,
        'poster',
        `@poster@${new URL(origins[0]!).host}`,
        now,
        now,
        now,
      ))!;
      await insertFollow.run(ids.reader, posterId, null, now);
      const silentHost = new URL(silentOrigin).host;
      const silentFan = `${silentOrigin}/users/fan`;
      const silentFanId = (await insertActor.get(
        silentFan,
        `${silentFan}/inbox`,
        `${silentOrigin}/inbox`,
        'fan',
        `@fan@${silentHost}`,
        now,
        now,
        now,
      ))!;
      await insertFollow.run(silentFanId, ids.neighbour, `${silentFan}#follow`, now);
    });
  } finally {
    close();
  }
}

/** The vault as `npm start` runs it, allowed to reach the loopback hosts. */
async function startVaultProcess(dataDir: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--max-semi-space-size=2', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      ...startEnvironment(),
      VAULT_DATA_DIR: dataDir,
      VAULT_LOG_LEVEL: 'error',
      VAULT_ALLOW_PRIVATE_ADDRESS: 'true',
      // The inbox parts measure throughput from one remote actor, far beyond the hourly limits.
      VAULT_INBOUND_PER_ACTOR_HOUR: '100000',
      VAULT_INBOUND_PER_SERVER_HOUR: '100000',
      PORT: String(port),
      HOST: '127.0.0.1',
      VAULT_ORIGIN: origin,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const kill = () => child.kill('SIGTERM');
  process.on('exit', kill);
  const started = performance.now();
  for (;;) {
    try {
      await fetch(`${origin}/api/auth/me`);
      break;
    } catch {
      if (performance.now() - started > 30_000) throw new Error('the vault did not start');
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return {
    origin,
    async stop() {
      process.off('exit', kill);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      kill();
      await exited;
    },
  };
}

async function postEntry(client: Client, name: string): Promise<number> {
  const res = await client.send('POST', '/api/beverages', multipart({ name, type: 'BEER' }));
  if (res.status !== 201) throw new Error(`POST /api/beverages: ${res.status}`);
  return (JSON.parse(res.body.toString()) as { beverage: { id: number } }).beverage.id;
}

export async function benchFederation(): Promise<Verdict[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-federation-'));
  const poster = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = poster.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const hosts = await startHosts({ publicKeyPem });
  const silent = await startSilentServer();
  await seed(dataDir, hosts.origins, silent.origin);
  const vault = await startVaultProcess(dataDir);
  try {
    const author = await signIn(vault.origin, 'author', PASSWORD);
    const quiet = await signIn(vault.origin, 'quiet', PASSWORD);
    const createOf = (id: number) => `${vault.origin}/users/author/entries/${id}#create`;
    const hostsWith = (activityId: string) =>
      new Set(hosts.arrivals.filter((a) => a.activityId === activityId).map((a) => a.host));

    // Warm-up: the author's keys are made and Fedify is loaded by the first delivery.
    const warm = await postEntry(author, 'Warm-up');
    await until('warm-up delivery', () => hostsWith(createOf(warm)).size === HOSTS, 60_000);

    console.log('\nFederation: one entry to 1,000 remote followers on 50 hosts');
    // Each round: an entry by an author without followers and one by the author with 1,000,
    // each timed alone (the previous fan-out has finished), then that entry's fan-out: from
    // the author's answer until the last of the 50 hosts has it, and how many POSTs it took.
    const quietMs: number[] = [];
    const quietIds: number[] = [];
    const authorIds: number[] = [warm];
    const authorMs: number[] = [];
    const fanOutMs: number[] = [];
    let maxPosts = 0;
    let delivered = true;
    for (let round = 0; round < FAN_OUT_ROUNDS; round++) {
      let t = performance.now();
      quietIds.push(await postEntry(quiet, 'Quiet pour'));
      quietMs.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
      t = performance.now();
      const id = await postEntry(author, 'Popular pour');
      const answered = performance.now();
      authorMs.push(answered - t);
      authorIds.push(id);
      delivered &&= await until('fan-out', () => hostsWith(createOf(id)).size === HOSTS, 30_000);
      const arrivals = hosts.arrivals.filter((a) => a.activityId === createOf(id));
      fanOutMs.push(Math.max(...arrivals.map((a) => a.at)) - answered);
      await new Promise((r) => setTimeout(r, 300)); // a late duplicate would count
      maxPosts = Math.max(
        maxPosts,
        hosts.arrivals.filter((a) => a.activityId === createOf(id)).length,
      );
    }
    const none = printStats('POST /api/beverages, author without followers', quietMs);
    const many = printStats('POST /api/beverages, author with 1,000 remote followers', authorMs);
    const fanOut = printStats('fan-out: answer to the last of 50 hosts', fanOutMs);
    console.log(`fan-out: at most ${maxPosts} POSTs for one entry`);

    const conversation = await benchConversation({
      origin: vault.origin,
      arrivals: hosts.arrivals,
      reader: await signIn(vault.origin, 'reader', PASSWORD),
      readerName: 'reader',
      quietEntries: quietIds,
      authorEntries: authorIds,
    });

    console.log(
      `\nInbox: ${INBOX_DELIVERIES} signed Create(Note) deliveries, ${INBOX_CONCURRENCY} at a time`,
    );
    const inbox = await benchInbox(vault.origin, hosts.origins[0]!, poster.privateKey, dataDir);

    console.log('\nInbox while one follower server never answers (6 deliveries to it hang)');
    const neighbour = await signIn(vault.origin, 'neighbour', PASSWORD);
    const unanswered = await benchSilentFollower({
      vaultOrigin: vault.origin,
      hostOrigin: hosts.origins[0]!,
      privateKey: poster.privateKey,
      dataDir,
      neighbour,
      silent,
    });
    const toStore = printStats('signed Create(Note): 202 to stored', unanswered.samples);
    console.log(`deliveries hanging at the silent server at the end: ${unanswered.hanging}`);

    return [
      {
        target: 'fan-out to 1,000 followers on 50 hosts: <= 50 POSTs',
        figure: `${maxPosts} POSTs at most`,
        met: maxPosts <= HOSTS && delivered,
      },
      {
        target: 'fan-out: every host within 10 s',
        figure: `p50 ${(fanOut.p50 / 1000).toFixed(2)} s, max ${(fanOut.max / 1000).toFixed(2)} s`,
        met: delivered && fanOut.max <= 10_000,
      },
      {
        target: "author's request unaffected (< 5 ms more, p50)",
        figure: `${(many.p50 - none.p50).toFixed(2)} ms more (max ${(many.max - none.max).toFixed(2)})`,
        met: many.p50 - none.p50 < 5,
      },
      {
        target: 'inbox: signed Create(Note) accepted and stored',
        figure: `${inbox.accepted.toFixed(0)}/s accepted, ${inbox.processed.toFixed(0)}/s stored`,
        met: inbox.allStored,
      },
      {
        target: 'inbox, a follower silent: stored within 2 s',
        figure: `p50 ${(toStore.p50 / 1000).toFixed(2)} s, max ${(toStore.max / 1000).toFixed(2)} s`,
        met: unanswered.allStored && toStore.max <= 2_000,
      },
      ...conversation,
    ];
  } finally {
    await vault.stop();
    await hosts.close();
    await silent.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY=federation: this benchmark alone. */
export async function runAlone(): Promise<never> {
  printVerdicts('Targets of issue 10 (federation):', await benchFederation());
  process.exit(0);
}
