/**
 * Requests linked to the roadmap (every storage has one): a feedback entry may name the roadmap feature it
 * asks for, so that the roadmap admin shows who asked, and the requester hears when it ships
 * (core/releases/shipped.ts, core/mail/shipped-requests.ts). A link names the feature the operator chose;
 * where that feature was merged, the link counts for the feature its votes went to (core/changelog/linked-requests.ts),
 * so a merge moves links with the votes and an unmerge moves them back, with nothing rewritten.
 *
 * @module
 */
/** One entry's link: its feature, or null. */
export interface FeedbackLinkState {
  feedbackId: number;
  featureId: number | null;
}

/** A linked entry, as the roadmap admin and the shipped-request mails read it. */
export interface LinkedRequest {
  feedbackId: number;
  featureId: number;
  /** The address the requester left, or null. */
  email: string | null;
}

/** What is read of the links. */
export interface LinkReads {
  /** The link of each listed entry that exists, in id order; ids with no entry are left out. */
  linksOf(ids: readonly number[]): Promise<FeedbackLinkState[]>;
  /** Every linked entry, in id order. */
  linked(): Promise<LinkedRequest[]>;
}

/** Where the links are kept, whole as a change has it. */
export interface FeedbackLinkStore extends LinkReads {
  /**
   * Links the listed entries to `featureId` (null: unlinks them); ids with no entry are skipped. Called in
   * a change (core/ports/change.ts), with the change's event and audit entry.
   */
  setFeature(ids: readonly number[], featureId: number | null): Promise<void>;
}
