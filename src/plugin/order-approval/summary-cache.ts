import { KeptViews } from '../../lib/kept-views.js';
import type { ApprovalSummary } from './repository.js';

/** Summaries kept per process (one is under 1 KB). */
const SUMMARIES_MAX = 10_000;

/**
 * The approval list's summaries kept per process, per approval, at the approval's version (moved by
 * a trigger on every update of its row, migrations/plugin/019): the plain company page reads ids,
 * versions and line counts, and reads the rows of the approvals whose version moved.
 */
export class ApprovalSummaryCache extends KeptViews<ApprovalSummary> {
  constructor() {
    super(SUMMARIES_MAX);
  }
}
