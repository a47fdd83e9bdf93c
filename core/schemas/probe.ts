/**
 * The body of a passing probe (GET /healthz, GET /readyz).
 *
 * @module
 */
import * as v from 'valibot';

/** A passing probe: "ok" from /healthz, "ready" from /readyz. */
export const ProbeSchema = v.pipe(
  v.strictObject({ status: v.picklist(['ok', 'ready']) }),
  v.description('A passing probe: {"status":"ok"} from /healthz, {"status":"ready"} from /readyz.'),
);
