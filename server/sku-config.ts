/**
 * The config file's `skus` (issue 56): what each SKU sells besides its price, one entry per SKU under the
 * names the checkout and `stripe.prices` use. For now its `updates`: the update window of the keys it
 * issues, a whole number of days from the key's issue day or `"lifetime"` (the default); the Plus bundle
 * gives one window for both its keys, or one per product (`{"standard": 365, "plus": 365}`). Apart from the
 * top-level `updates`, which configures the signed update files. No node:* here: the Worker bundles it.
 *
 * @module
 */
import * as v from 'valibot';
import { MAX_WINDOW_DAYS, type SaleWindows, type WindowDays } from '../core/licensing/sale-windows.ts';

const WINDOW = `must be a positive whole number of days (at most ${MAX_WINDOW_DAYS}) or "lifetime"`;

/** One update window: days, or "lifetime". */
const UpdateWindow = v.union(
  [v.literal('lifetime'), v.pipe(v.number(WINDOW), v.integer(WINDOW), v.minValue(1, WINDOW), v.maxValue(MAX_WINDOW_DAYS, WINDOW))],
  WINDOW,
);

const BundleWindows = v.union(
  [UpdateWindow, v.strictObject({ standard: UpdateWindow, plus: UpdateWindow })],
  `${WINDOW}, or one of each for "standard" and "plus"`,
);

/** The config file's `skus`. */
export const SkusFileSchema = v.strictObject({
  standard: v.optional(v.strictObject({ updates: v.optional(UpdateWindow) })),
  plus_addon: v.optional(v.strictObject({ updates: v.optional(UpdateWindow) })),
  plus_bundle: v.optional(v.strictObject({ updates: v.optional(BundleWindows) })),
});

export type SkusFile = v.InferOutput<typeof SkusFileSchema>;

type FileWindow = v.InferOutput<typeof UpdateWindow>;

const days = (window: FileWindow | undefined): WindowDays => (window === undefined || window === 'lifetime' ? null : window);

/** The windows the file's `skus` sets, lifetime for what it leaves out. */
export function saleWindowsOf(skus: SkusFile | undefined): SaleWindows {
  const bundle = skus?.plus_bundle?.updates;
  const [bundleStandard, bundlePlus] = typeof bundle === 'object' ? [bundle.standard, bundle.plus] : [bundle, bundle];
  return {
    standard: { standard: days(skus?.standard?.updates) },
    plus_addon: { plus: days(skus?.plus_addon?.updates) },
    plus_bundle: { standard: days(bundleStandard), plus: days(bundlePlus) },
  };
}
