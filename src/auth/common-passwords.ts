import { createRequire } from 'node:module';
import type * as ZxcvbnCore from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';

export const COMMON_PASSWORD = 'This password is too common. Choose one that is harder to guess.';

/**
 * zxcvbn's score 2 means at least 10^6 estimated guesses. Below it are the common passwords
 * and their simple variants (capitals, digits or a year added, l33t, reversed), keyboard
 * walks, sequences, repeats and whitespace.
 */
const MIN_SCORE = 2;

let estimator: ZxcvbnCore.ZxcvbnFactory | undefined;

/**
 * The estimator with the common-password and common-word dictionaries and keyboard layouts.
 * Loaded on first use only (about 8 MB of resident memory once loaded): an idle server that
 * sets no password never carries it. Synchronous, so that it can sit in the field rules.
 */
function zxcvbn(): ZxcvbnCore.ZxcvbnFactory {
  if (!estimator) {
    const require = createRequire(import.meta.url);
    const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof ZxcvbnCore;
    const { dictionary, adjacencyGraphs } =
      require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
    estimator = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  }
  return estimator;
}

/** True when the password is among the most common ones or as easy to guess. */
export function isCommonPassword(password: string): boolean {
  return zxcvbn().check(password).score < MIN_SCORE;
}
