import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 8;
// Long enough for any passphrase or manager-generated password; a cap keeps one sign-in from costing megabytes of scrypt input.
export const MAX_PASSWORD_LENGTH = 256;
// zxcvbn's 0-4 scale: 3 means about 10^8 guesses or more, out of reach of an online attack held back by the sign-in throttle.
const MIN_SCORE = 3;

// The estimator carries its dictionaries (common passwords, names, words); build it once, on first use.
let estimator: ZxcvbnFactory | undefined;
function strength(password: string) {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  return estimator.check(password);
}

/** A password someone is choosing: length within bounds, and not a common or easily guessed one. */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters`, abort: true })
  .max(MAX_PASSWORD_LENGTH, { message: `must be at most ${MAX_PASSWORD_LENGTH} characters`, abort: true })
  .refine((password) => strength(password).score >= MIN_SCORE, 'is too common or too easy to guess; use a longer passphrase or a generated password');
