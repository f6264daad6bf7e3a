/**
 * Database constraint violations that input caused (an unknown id named in a foreign key, a duplicate,
 * a value the column cannot hold) are refusals of that input: the 4xx they stand for, not an error of ours.
 */
import type { ErrorCode } from '../../../common/errors';
import { sqlState } from '../db/client';

/** The refusal a constraint violation stands for, or undefined for a database error of ours. */
export function constraintRefusal(error: unknown): ErrorCode | undefined {
  switch (sqlState(error)) {
    case '23503': // foreign key: the input named something that does not exist
      return 'not_found';
    case '23505': // unique: it exists already
      return 'conflict';
    case '22P02': // invalid text representation
    case '22003': // numeric value out of range
    case '22021': // character not in repertoire (NUL)
      return 'bad_request';
    default:
      return undefined;
  }
}
