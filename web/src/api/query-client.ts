/**
 * The client's server state lives in TanStack Query. One QueryClient per signed-in session
 * (App.tsx makes it inside SignedInApp, which is keyed by the session's epoch), so signing out
 * or in as someone else throws every cached answer away.
 */
import { QueryClient } from '@tanstack/query-core';
import { ApiError, NO_ANSWER } from './client.ts';

/** At most this many tries again for a failure that may pass (a 5xx, or no answer at all). */
const MAX_RETRIES = 1;

/**
 * Whether a failed query is worth trying again: never for a 4xx (the server has said no and will
 * say it again) nor for an aborted request; once for a 5xx or an unreachable server.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (error instanceof ApiError) return error.status === NO_ANSWER || error.status >= 500;
  return false;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: 500,
        // Lists already follow the user's own changes in place; a query that must stay fresh
        // while the user is away (the notifications) polls or asks for focus refetches itself.
        refetchOnWindowFocus: false,
        // A screen opened again shows what it had at once and asks the server in the background.
        staleTime: 0,
      },
      mutations: { retry: false },
    },
  });
}
