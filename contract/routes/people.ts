import { blockAnswerSchema, blockBodySchema, blockListSchema } from '../blocks.ts';
import {
  createDomainBlockBodySchema,
  createdDomainBlockSchema,
  domainBlockListSchema,
} from '../domain-blocks.ts';
import {
  followingListSchema,
  lookupAnswerSchema,
  remoteFollowAnswerSchema,
  remoteFollowBodySchema,
  remoteLookupBodySchema,
} from '../follows.ts';
import {
  followAnswerSchema,
  followBodySchema,
  followerListSchema,
  userSearchAnswerSchema,
  userSearchQuerySchema,
} from '../social.ts';
import {
  createUserBodySchema,
  profileFormSchema,
  publicProfileAnswerSchema,
  updateUserBodySchema,
  userAnswerSchema,
  userListSchema,
} from '../users.ts';
import { route } from './route.ts';

const registry = {
  'GET /users': route({
    summary: 'Every user of the vault, by username',
    tag: 'Users',
    access: 'admin',
    answer: userListSchema,
  }),
  'POST /users': route({
    summary: 'Create a user with a password and a role',
    description: 'A common password is refused (400), a username already taken too (409).',
    tag: 'Users',
    access: 'admin',
    json: createUserBodySchema,
    answer: userAnswerSchema,
    status: 201,
    errors: [400, 409],
  }),
  'PATCH /users/{id}': route({
    summary: "Change a user's name, email or role, or reset their password",
    description:
      'A password reset ends every session of the user. The last admin cannot be demoted (409).',
    tag: 'Users',
    access: 'admin',
    json: updateUserBodySchema,
    answer: userAnswerSchema,
    errors: [400, 404, 409],
  }),
} as const;

const profile = {
  'PATCH /users/me': route({
    summary: 'Change your own profile, settings, avatar or password',
    description:
      'A multipart form; `avatar` is an image file. The fields sent are changed, the others kept. ' +
      'A new password needs the current one, and ends every other session of yours.',
    tag: 'Profile',
    access: 'session',
    form: profileFormSchema,
    answer: userAnswerSchema,
    errors: [400, 413, 415, 429],
  }),
  'GET /users/profiles/{username}': route({
    summary: "A user's public profile",
    tag: 'Profile',
    access: 'read',
    answer: publicProfileAnswerSchema,
    errors: [404],
  }),
} as const;

const follows = {
  'GET /users/search': route({
    summary: 'Users of this vault by username or full name (you left out)',
    tag: 'Follows',
    access: 'read',
    query: userSearchQuerySchema,
    answer: userSearchAnswerSchema,
    errors: [400],
  }),
  'GET /users/following': route({
    summary: 'The users and fediverse accounts you follow or asked to follow',
    tag: 'Follows',
    access: 'read',
    answer: followingListSchema,
  }),
  'GET /users/followers': route({
    summary: 'Who follows you: users of this vault and fediverse accounts',
    tag: 'Follows',
    access: 'read',
    answer: followerListSchema,
  }),
  'POST /users/lookup': route({
    summary: 'Find a fediverse account by handle or profile address',
    description: 'Needs federation turned on in your profile (409).',
    tag: 'Follows',
    access: 'write',
    json: remoteLookupBodySchema,
    answer: lookupAnswerSchema,
    errors: [400, 403, 404, 409, 422],
  }),
  'POST /users/remote-follows': route({
    summary: 'Follow a fediverse account (pending until it accepts)',
    tag: 'Follows',
    access: 'write',
    json: remoteFollowBodySchema,
    answer: remoteFollowAnswerSchema,
    status: 201,
    errors: [400, 403, 404, 409, 422],
  }),
  'DELETE /users/remote-follows/{actorId}': route({
    summary: 'Stop following a fediverse account',
    tag: 'Follows',
    access: 'write',
    status: 204,
    errors: [400, 404],
  }),
  'DELETE /users/followers/{actorId}': route({
    summary: 'Remove a follower, of this vault or of the fediverse',
    tag: 'Follows',
    access: 'write',
    status: 204,
    errors: [400, 404],
  }),
  'POST /users/{id}/follow': route({
    summary: 'Follow a user of this vault (a request when they approve followers)',
    tag: 'Follows',
    access: 'write',
    json: followBodySchema,
    jsonOptional: true,
    answer: followAnswerSchema,
    status: 201,
    errors: [400, 403, 404, 409],
  }),
  'DELETE /users/{id}/follow': route({
    summary: 'Stop following a user of this vault, or take back a request',
    tag: 'Follows',
    access: 'write',
    status: 204,
    errors: [400, 404, 409],
  }),
} as const;

const blocks = {
  'GET /users/blocks': route({
    summary: 'The users and fediverse accounts you blocked, most recent first',
    tag: 'Blocks',
    access: 'read',
    answer: blockListSchema,
  }),
  'POST /users/blocks': route({
    summary: 'Block a user of this vault or a fediverse account',
    description:
      'Ends follows both ways and hides entries both ways. Answers 200 with the block when it ' +
      'existed already.',
    tag: 'Blocks',
    access: 'write',
    json: blockBodySchema,
    answer: blockAnswerSchema,
    status: 201,
    errors: [400, 403, 404, 422],
  }),
  'DELETE /users/blocks/{id}': route({
    summary: 'Lift a block',
    tag: 'Blocks',
    access: 'write',
    status: 204,
    errors: [400, 404],
  }),
} as const;

const blockedServers = {
  'GET /domain-blocks': route({
    summary: 'The servers the vault refuses to hear from or contact, by domain',
    tag: 'Blocked servers',
    access: 'admin',
    answer: domainBlockListSchema,
  }),
  'POST /domain-blocks': route({
    summary: 'Block a server (its host, with a port for that port only)',
    tag: 'Blocked servers',
    access: 'admin',
    json: createDomainBlockBodySchema,
    answer: createdDomainBlockSchema,
    status: 201,
    errors: [400, 409],
  }),
  'DELETE /domain-blocks/{id}': route({
    summary: 'Lift the block of a server',
    tag: 'Blocked servers',
    access: 'admin',
    status: 204,
    errors: [400, 404],
  }),
} as const;

/** Users (the admin's registry), profiles, follows, blocks and blocked servers. */
export const peopleRoutes = {
  ...registry,
  ...profile,
  ...follows,
  ...blocks,
  ...blockedServers,
} as const;
