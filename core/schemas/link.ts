/**
 * An absolute URL, as every link of the API's answers is.
 *
 * @module
 */
import * as v from 'valibot';

/** An absolute URL of at most 2048 characters. */
export const Link: v.GenericSchema<string> = v.pipe(v.string(), v.url('must be an absolute URL'), v.maxLength(2048));
