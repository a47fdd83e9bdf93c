/**
 * A compile-time proof that a written type and a schema's inferred type are the same. The exported schemas
 * carry written types (JSR rejects inferred ones in a public API); this keeps the two from drifting.
 *
 * @module
 */

/** True only when A and B are the same type (optional and readonly modifiers included). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given true: `type _ = Assert<Equal<A, B>>`. */
export type Assert<T extends true> = T;
