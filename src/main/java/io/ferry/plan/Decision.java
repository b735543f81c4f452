package io.ferry.plan;

import io.ferry.store.StoreObject;
import java.io.Serializable;

/** What a run does with one key ({@link Triage#decide}). */
public record Decision(Kind kind, StoreObject object, String reason) implements Serializable {
  public enum Kind {
    /** Copied. */
    COPY,
    /** The destination holds it unchanged. */
    UNCHANGED,
    /** The destination cannot hold it ({@code reason}). */
    REJECTED,
    /**
     * The source holds it, and the job's settings leave it, reported ({@code reason}): a symbolic link not followed, an
     * archived object under {@code source.archived = skip}.
     */
    NOT_COPIED,
    /**
     * Archived at the source and not readable, under {@code source.archived = fail}: a failure of the run, for which
     * no request is sent ({@code reason}).
     */
    ARCHIVED,
    /**
     * Archived at the source and not readable, under {@code source.archived = restore}: a RestoreObject is sent for it
     * unless one is under way ({@code reason}), and a rerun copies it once it is restored.
     */
    RESTORE,
    /** Its size or modification time is outside the selected ranges. */
    FILTERED,
    /** Only the destination holds it, among the keys the job selects: what delete-extraneous deletes. */
    EXTRANEOUS
  }

  public static Decision of(Kind kind, StoreObject object) {
    return new Decision(kind, object, "");
  }
}
