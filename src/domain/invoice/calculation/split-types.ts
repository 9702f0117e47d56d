/** The shape of one split of a discount or tax over the lines (see `column-split.ts`). */

/** The class's lines get nothing from this split. */
export const NOT_ELIGIBLE = -1;
/** The class's lines each give their whole cap (the class was capped at what it had left). */
export const TAKES_CAP = -2;

/** One split over the lines. Every amount is an integer number of minor units within `SCALED_LIMIT`. */
export interface ColumnSplit {
  readonly classOf: Uint32Array;
  /** Per class id: `NOT_ELIGIBLE`, `TAKES_CAP`, or the index of the group its lines belong to. */
  readonly groupOfClass: Int32Array;
  /** Per group: what its lines must add up to (between Σ floors and Σ ceilings of their shares). */
  readonly groupTargets: ArrayLike<number>;
  readonly weights: Float64Array;
  /** Read for `TAKES_CAP` classes. */
  readonly caps: Float64Array;
  readonly numerator: number;
  readonly denominator: number;
}

/** Where each line's part goes once known: taken from a column (`sign` −1) or added to one (+1). */
export interface SplitSettlement {
  readonly column: Float64Array;
  readonly sign: 1 | -1;
  /** Whether to report classes in which the column went below zero. */
  readonly watchOverdraft: boolean;
}
